import { DEFAULT_LOCALE, isLocale, type Locale, localeOfPath } from '#contract/locales';

/** The one thing the site keeps in the browser (the privacy notice names it). */
export const LANGUAGE_STORAGE_KEY = 'mandje:language';

/** A path that names a language wins (a shared `/en/` link stays English), then the visitor's choice. */
export function initialLocale(pathname: string, preference: Locale | undefined): Locale {
  return localeOfPath(pathname) ?? preference ?? DEFAULT_LOCALE;
}

export function readLanguagePreference(): Locale | undefined {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(stored) ? stored : undefined;
  } catch {
    return undefined; // storage blocked by privacy settings
  }
}

export function saveLanguagePreference(locale: Locale): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Not remembering is acceptable; failing the switch is not.
  }
}
