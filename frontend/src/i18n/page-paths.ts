import { LOCALES, type Locale } from '#contract/locales';

/** The pages with an address of their own: one per language, Dutch at the root, English under /en/. */
export const PAGE_PATH = {
  home: { nl: '/', en: '/en/' },
  privacy: { nl: '/privacy', en: '/en/privacy' },
} as const satisfies Record<string, Record<Locale, string>>;

export type AddressedPage = keyof typeof PAGE_PATH;

/** Every page the build writes; the not-found page answers any address that is not one of the others. */
export type Page = AddressedPage | 'not-found';

export function isPage(value: unknown): value is Page {
  return value === 'not-found' || (typeof value === 'string' && Object.hasOwn(PAGE_PATH, value));
}

const withoutTrailingSlash = (path: string) => path.replace(/\/+$/, '');

/**
 * The page an address names. The dev server serves the same unrendered HTML at every address, so there the
 * script reads the page from the address; any unknown address shows home.
 */
export function pageOfPath(pathname: string): AddressedPage {
  const wanted = withoutTrailingSlash(pathname);
  const pages = Object.keys(PAGE_PATH) as AddressedPage[];
  return (
    pages.find((page) =>
      LOCALES.some((locale) => withoutTrailingSlash(PAGE_PATH[page][locale]) === wanted),
    ) ?? 'home'
  );
}

/** Where a language switch leads: the same page in the other language; from the not-found page, home. */
export function pathOf(page: Page, locale: Locale): string {
  return PAGE_PATH[page === 'not-found' ? 'home' : page][locale];
}
