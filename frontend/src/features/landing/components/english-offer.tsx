import { type ComponentType, useEffect, useState } from 'react';
import { readLanguagePreference } from '@/i18n/language-context';

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
