import { useEffect, useState } from 'react';
import { focusRing } from '@/components/control-styles';
import { Icon } from '@/components/icons';
import { isPlainClick } from '@/components/plain-click';
import { ENGLISH_OFFER } from '@/features/landing/copy/english-offer';
import { useLanguage } from '@/i18n/language-context';
import { readLanguagePreference } from '@/i18n/language-preference';
import { PAGE_PATH } from '@/i18n/page-paths';

/** Whether the browser asks for English before Dutch (`en-GB, nl` does; `nl, en` and `de` do not). */
const prefersEnglish = (languages: readonly string[]) =>
  languages
    .map((tag) => tag.toLowerCase().split('-')[0])
    .find((language) => language === 'en' || language === 'nl') === 'en';

/**
 * Offers the English page on the Dutch one, without sending anyone there, when the browser asks for English
 * and the visitor has not chosen a language here. Known only once the script runs, so it is laid over the
 * space under the hero's top row, where it moves nothing as it appears.
 */
export function EnglishOffer() {
  const { locale, switchLocale } = useLanguage();
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    setOffered(readLanguagePreference() === undefined && prefersEnglish(navigator.languages));
  }, []);
  if (!offered || locale !== 'nl') return null;
  return (
    <p lang="en" className="absolute top-full right-0 -mt-2">
      <a
        href={PAGE_PATH.home.en}
        hrefLang="en"
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          switchLocale('en');
        }}
        className={`inline-flex min-h-8 items-center gap-1.5 rounded-full bg-white px-3 text-sm font-semibold whitespace-nowrap text-brand-800 shadow-sm ring-1 ring-stone-200 hover:text-brand-900 ${focusRing}`}
      >
        {ENGLISH_OFFER}
        <Icon name="arrowRight" className="h-4 w-4" />
      </a>
    </p>
  );
}
