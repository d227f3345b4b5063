export const LOCALES = ['nl', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'nl';

/** BCP 47 tags for Intl: English copy is written for shoppers in the Netherlands, so British conventions. */
export const INTL_LOCALE: Record<Locale, string> = { nl: 'nl-NL', en: 'en-GB' };

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The language a path asks for, if it asks: `/en` and everything below it is English. */
export const localeOfPath = (pathname: string): Locale | undefined =>
  pathname === '/en' || pathname.startsWith('/en/') ? 'en' : undefined;

export const otherLocale = (locale: Locale): Locale => (locale === 'nl' ? 'en' : 'nl');

/** Each result page's address in each language: `/<folder>/<page>`, the English one under `/en`. */
export const resultPaths = <const Page extends string>(folder: string, pages: readonly Page[]) =>
  Object.fromEntries(
    pages.map((page) => [page, { nl: `/${folder}/${page}`, en: `/en/${folder}/${page}` }]),
  ) as Record<Page, Record<Locale, string>>;
