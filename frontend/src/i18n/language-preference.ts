import { isLocale, type Locale } from '#contract/locales';

/** The one thing the site keeps in the browser (the privacy notice names it). */
export const LANGUAGE_STORAGE_KEY = 'mandje:language';

/** The language the visitor chose last time, if they ever chose one. */
export function readLanguagePreference(): Locale | undefined {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(stored) ? stored : undefined;
  } catch {
    // Storage can be blocked (privacy settings); the page then simply starts in the path's language.
    return undefined;
  }
}

export function saveLanguagePreference(locale: Locale): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Not remembering is acceptable; failing the switch is not.
  }
}
