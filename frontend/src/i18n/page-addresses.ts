import { LOCALES } from '#contract/locales';
import { siteConfig } from '@/config/site';
import { type AddressedPage, PAGE_PATH } from './page-paths';

/** Named in their heads and in sitemap.xml (frontend/discovery-files.ts). */
export const INDEXED_PAGES = ['home', 'privacy'] as const satisfies readonly AddressedPage[];
export type IndexedPage = (typeof INDEXED_PAGES)[number];

/** x-default: Dutch. */
export function languageAlternates(page: IndexedPage) {
  const url = { nl: siteConfig.siteUrl + PAGE_PATH[page].nl, en: siteConfig.siteUrl + PAGE_PATH[page].en };
  const alternates = LOCALES.map((each) => ({ hreflang: each, href: url[each] }));
  return { url, alternates: [...alternates, { hreflang: 'x-default', href: url.nl }] };
}
