import { useLanguage } from '../i18n/language-context';
import { PAGE_PATH } from '../i18n/page-paths';
import { BrandLogo } from './brand-logo';
import { LanguageSwitch } from './language-switch';

/**
 * The top of every page but the landing page: a skip link to `#main`, the logo leading home, and the
 * language switch. The page puts `id="main"` on its own <main>. A page without an address per language
 * (the confirmation page, opened by the link in a mail in the visitor's language) goes without the switch.
 */
export function SubpageHeader({ languageSwitch = true }: { languageSwitch?: boolean }) {
  const { locale, messages } = useLanguage();
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        {messages.common.skipToContent}
      </a>
      <header className="bg-linear-to-b from-brand-100 to-brand-50">
        {/* As tall as the language switch makes it, before the switch is there (see the hero). */}
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
