import { DEFAULT_LOCALE, type Locale, localeOfPath } from '#contract/locales';

/**
 * The language a page opens in: a path that names a language wins (a shared `/en/` link stays English),
 * then the visitor's own earlier choice, then Dutch.
 */
export function initialLocale(pathname: string, preference: Locale | undefined): Locale {
  return localeOfPath(pathname) ?? preference ?? DEFAULT_LOCALE;
}
