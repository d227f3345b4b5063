import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { BrandLogo } from './brand-logo';
import { LanguageSwitch } from './language-switch';
import { SkipLink } from './skip-link';

/** The page puts `id="main"` on its own <main>. */
export function SubpageHeader({ languageSwitch = true }: { languageSwitch?: boolean }) {
  const { locale } = useLanguage();
  return (
    <>
      <SkipLink target="main" />
      <header className="bg-linear-to-b from-brand-100 to-brand-50">
        <div className="mx-auto flex min-h-20 max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <a
            href={PAGE_PATH.home[locale]}
            className="rounded-lg text-brand-900 focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-700"
          >
            <BrandLogo />
          </a>
          {languageSwitch && <LanguageSwitch />}
        </div>
      </header>
    </>
  );
}
