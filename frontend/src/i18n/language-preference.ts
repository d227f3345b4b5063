import { isLocale, type Locale } from './locales';

const STORAGE_KEY = 'mandje:language';

/** The language the visitor chose last time, if they ever chose one. */
export function readLanguagePreference(): Locale | undefined {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return isLocale(stored) ? stored : undefined;
  } catch {
    // Storage can be blocked (privacy settings); the page then simply starts in the path's language.
    return undefined;
  }
}

export function saveLanguagePreference(locale: Locale): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Not remembering is acceptable; failing the switch is not.
  }
}
