import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { BrandLogo, Mascot } from '@/components/brand-logo';
import { joinButton } from '@/components/control-styles';
import { SignupLink } from '@/components/go-to-signup';
import { Icon, type IconName } from '@/components/icons';
import { LanguageSwitch } from '@/components/language-switch';
import { PageSection } from '@/components/page-section';
import { savingsClaims } from '@/config/savings-claims';
import { SUPERMARKETS } from '@/config/supermarkets';
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

const MODES = [
  { key: 'product', icon: 'search' },
  { key: 'basket', icon: 'basket' },
  { key: 'receipt', icon: 'receipt' },
] as const satisfies readonly { key: string; icon: IconName }[];

// Three ways in, not steps in an order: an unordered list, led by icons rather than numbers.
export function HowItWorks() {
  const copy = useLanguage().messages.howItWorks;
  return (
    <PageSection id="how-it-works" title={copy.title} intro={copy.intro}>
      <ul className="mx-auto mt-stack grid max-w-md gap-4 md:max-w-none md:grid-cols-3 md:gap-6">
        {MODES.map(({ key, icon }) => (
          <li key={key} className="rounded-2xl bg-white p-6 ring-1 ring-stone-200">
            <span
              aria-hidden="true"
              className="grid size-11 place-items-center rounded-full bg-brand-100 text-brand-700"
            >
              <Icon name={icon} className="h-5 w-5" />
            </span>
            <h3 className="mt-4 text-heading text-stone-950">{copy.modes[key].title}</h3>
            <p className="mt-2 text-stone-600">{copy.modes[key].body}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

const POINTS = ['money', 'time', 'oneTrip'] as const;

export function WhyMandje() {
  const { messages, format } = useLanguage();
  const claims = savingsClaims(format);
  const copy = messages.why;
  return (
    <PageSection id="why" title={copy.title} layout="split" className="bg-white">
      <ul className="divide-y divide-stone-200 border-y border-stone-200">
        {POINTS.map((key) => (
          <li key={key} className="py-6 sm:grid sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] sm:gap-8 sm:py-8">
            <h3 className="text-heading text-stone-950">{copy.points[key].title}</h3>
            <p className="mt-2 text-stone-600 sm:mt-0">{fillIn(copy.points[key].body, claims)}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

// Names in one style, no imitation of anyone's logo; 2 and 5 columns, so ten names fill their last row.
export function TrustedSources() {
  const copy = useLanguage().messages.sources;
  return (
    <PageSection id="supermarkets" title={copy.title}>
      <ul
        aria-label={copy.listLabel}
        className="mx-auto mt-stack grid max-w-4xl grid-cols-2 gap-3 md:grid-cols-5"
      >
        {SUPERMARKETS.map((name) => (
          <li
            key={name}
            className="flex min-h-12 items-center justify-center px-3 text-center text-lg font-semibold text-stone-700"
          >
            {name}
          </li>
        ))}
      </ul>
      <p className="mt-8 flex items-center justify-center gap-2 text-center text-stone-700">
        <Icon name="clock" className="h-5 w-5 shrink-0 text-brand-700" />
        {copy.note}
      </p>
    </PageSection>
  );
}

const FEATURES = [
  { key: 'location', icon: 'pin' },
  { key: 'personal', icon: 'sparkle' },
  { key: 'notifications', icon: 'bell' },
  { key: 'seasonal', icon: 'leaf' },
] as const satisfies readonly { key: string; icon: IconName }[];

export function WhatsNext() {
  const { messages } = useLanguage();
  const copy = messages.next;
  return (
    <PageSection
      id="whats-next"
      title={copy.title}
      intro={copy.intro}
      layout="split"
      aside={<Mascot label={copy.mascotLabel} className="h-auto w-24 sm:w-32 lg:mt-10 lg:w-52" />}
      className="bg-white"
    >
      <p className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
        {messages.common.comingSoon}
      </p>
      <ul className="mt-6">
        {FEATURES.map(({ key, icon }) => (
          <li key={key} className="group relative grid grid-cols-[2.5rem_1fr] gap-x-4 pb-8 last:pb-0">
            <span
              aria-hidden="true"
              className="absolute top-12 bottom-2 left-5 border-l-2 border-dashed border-stone-300 group-last:hidden"
            />
            <span className="row-span-2 grid size-10 place-items-center rounded-full bg-paper text-brand-800 ring-1 ring-stone-200">
              <Icon name={icon} className="h-5 w-5" />
            </span>
            <h3 className="pt-2 text-heading text-stone-950">{copy.features[key].title}</h3>
            <p className="mt-1 text-stone-600">{copy.features[key].body}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

export function FinalCall() {
  const copy = useLanguage().messages.finalCta;
  return (
    <section aria-labelledby="final-call-title" className="bg-white">
      <div className="mx-auto max-w-6xl px-4 pb-section sm:px-6">
        <div className="flex flex-col gap-6 border-t border-stone-200 pt-10 md:flex-row md:items-end md:justify-between md:gap-12">
          <div className="max-w-2xl">
            <h2 id="final-call-title" className="text-subtitle text-stone-950">
              {copy.title}
            </h2>
            <p className="mt-2 text-lead text-stone-600">{copy.body}</p>
          </div>
          <SignupLink className={`${joinButton} shrink-0 self-start md:self-auto`}>
            {copy.button}
            <Icon name="arrowDown" className="h-4 w-4" />
          </SignupLink>
        </div>
      </div>
    </section>
  );
}
