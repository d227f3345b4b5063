import { BrandLogo } from '../../../components/brand-logo';
import { primaryButton } from '../../../components/control-styles';
import { Icon } from '../../../components/icons';
import { LanguageSwitch } from '../../../components/language-switch';
import { SignupLink } from '../../../components/signup-link';
import { useLanguage } from '../../../i18n/language-context';

/** Where the page's content starts: the skip link (pages/landing-page.tsx) passes the logo and language switch to it. */
export const HERO_TITLE_ID = 'hero-title';

export function Hero() {
  const { messages } = useLanguage();
  const copy = messages.hero;
  return (
    <header className="bg-linear-to-b from-brand-100 via-brand-50 to-paper">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        {/* As tall as the language switch makes it (48 px and the padding) before the switch is there: a
            page still being parsed shows the logo where it stays. */}
        <div className="flex min-h-20 items-center justify-between gap-4 py-4">
          <BrandLogo className="text-brand-900" />
          <LanguageSwitch />
        </div>
        <div className="mx-auto max-w-3xl pt-12 pb-20 text-center sm:pt-20 sm:pb-28">
          <h1
            id={HERO_TITLE_ID}
            className="text-4xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-6xl"
          >
            {copy.title}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-stone-700 sm:text-xl">
            {copy.subtitle}
          </p>
          <div className="mt-10 flex flex-col items-center gap-4">
            <SignupLink className={`${primaryButton} px-8 py-4 text-lg`}>
              {copy.joinWaitlist}
              <Icon name="arrowDown" />
            </SignupLink>
            <p className="inline-flex items-center gap-2 text-sm font-medium text-brand-800">
              <Icon name="check" className="h-4 w-4" />
              {copy.testers}
            </p>
          </div>
        </div>
      </div>
    </header>
  );
}
