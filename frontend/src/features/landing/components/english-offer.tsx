import { type ComponentType, useEffect, useState } from 'react';
import { readLanguagePreference } from '@/i18n/language-context';

/** Whether the browser asks for English before Dutch (`en-GB, nl` does; `nl, en` and `de` do not). */
const prefersEnglish = (languages: readonly string[]) =>
  languages
    .map((tag) => tag.toLowerCase().split('-')[0])
    .find((language) => language === 'en' || language === 'nl') === 'en';

/**
 * Offers the English page on the Dutch one, without sending anyone there, when the browser asks for English
 * and the visitor has not chosen a language here. Known only once the script runs, so the link is fetched
 * then, for those it is for (not in the first load's script), and laid over the space under the hero's top
 * row, where it moves nothing as it appears.
 */
export function EnglishOffer() {
  const [Link, setLink] = useState<ComponentType>();
  useEffect(() => {
    if (readLanguagePreference() !== undefined || !prefersEnglish(navigator.languages)) return;
    import('./english-offer-link').then(({ EnglishOfferLink }) => setLink(() => EnglishOfferLink));
  }, []);
  return Link ? <Link /> : null;
}
