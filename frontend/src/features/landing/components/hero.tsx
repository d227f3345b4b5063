import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { BrandLogo } from '@/components/brand-logo';
import { joinButton } from '@/components/control-styles';
import { SignupLink } from '@/components/go-to-signup';
import { Icon } from '@/components/icons';
import { LanguageSwitch } from '@/components/language-switch';
import { savingsClaims } from '@/config/savings-claims';
import { fillIn } from '@/i18n/fill-in';
import { readLanguagePreference, useLanguage } from '@/i18n/language-context';

export const HERO_TITLE_ID = 'hero-title';

/** `still` comes from the page: it belongs to the demo feature, which the landing feature must not import. */
export function Hero({ still }: { still?: ReactNode }) {
  const { messages, format } = useLanguage();
  const copy = messages.hero;
  return (
    <header className="bg-linear-to-b from-brand-100 via-brand-50 to-paper">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        {/* As tall as the language switch makes it, before the switch is there: the logo does not move. */}
        <div className="relative flex min-h-20 items-center justify-between gap-4 py-4">
          <BrandLogo className="text-brand-900" />
          <LanguageSwitch />
          <EnglishOffer />
        </div>
        <div className="grid items-center gap-12 pt-10 pb-16 sm:pt-16 sm:pb-20 lg:grid-cols-[1.25fr_1fr] lg:gap-16 lg:pt-20 lg:pb-24">
          <div className="mx-auto max-w-2xl lg:mx-0">
            <h1
              id={HERO_TITLE_ID}
              className="text-4xl font-bold tracking-tight text-balance text-stone-950 sm:text-5xl xl:text-6xl"
            >
              {copy.title}
            </h1>
            <p className="mt-6 text-lg text-pretty text-stone-700 sm:text-xl">
              {fillIn(copy.subtitle, savingsClaims(format))}
            </p>
            <div className="mt-10 flex flex-col items-start gap-4">
              <SignupLink className={joinButton}>
                {copy.joinWaitlist}
                <Icon name="arrowDown" />
              </SignupLink>
              <p className="inline-flex items-center gap-2 text-sm font-medium text-brand-800">
                <Icon name="check" className="h-4 w-4" />
                {copy.testers}
              </p>
            </div>
          </div>
          {still}
        </div>
      </div>
    </header>
  );
}

/** Whether the browser asks for English before Dutch (`en-GB, nl` does; `nl, en` and `de` do not). */
const prefersEnglish = (languages: readonly string[]) =>
  languages
    .map((tag) => tag.toLowerCase().split('-')[0])
    .find((language) => language === 'en' || language === 'nl') === 'en';

// Offers the English page on the Dutch one to a browser that asks for English, if the visitor chose no language
// here: known only once the script runs, so the link is fetched then, laid where it moves nothing.
export function EnglishOffer() {
  const [Link, setLink] = useState<ComponentType>();
  useEffect(() => {
    if (readLanguagePreference() !== undefined || !prefersEnglish(navigator.languages)) return;
    import('./english-offer-link').then(({ EnglishOfferLink }) => setLink(() => EnglishOfferLink));
  }, []);
  return Link ? <Link /> : null;
}
