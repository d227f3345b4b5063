import { LOCALES, type Locale } from '#contract/locales';
import { siteConfig } from '@/config/site';
import { type AddressedPage, PAGE_PATH } from './page-paths';

/**
 * The pages search engines may index, each in both languages, at their absolute addresses: their heads
 * name them (page-metadata.ts), and so does sitemap.xml (frontend/discovery-files.ts), which the build
 * writes from the prerender's bundle (prerender.tsx, discoveryFacts).
 */
export const INDEXED_PAGES = ['home', 'privacy'] as const satisfies readonly AddressedPage[];
export type IndexedPage = (typeof INDEXED_PAGES)[number];

const absoluteUrl = (path: string) => `${siteConfig.siteUrl}${path}`;

/** An indexed page's address in each language, and the alternates that name them (x-default: Dutch). */
export function languageAlternates(page: IndexedPage): {
  url: Record<Locale, string>;
  alternates: { hreflang: string; href: string }[];
} {
  const paths = PAGE_PATH[page];
  const url = { nl: absoluteUrl(paths.nl), en: absoluteUrl(paths.en) };
  return {
    url,
    alternates: [
      ...LOCALES.map((each) => ({ hreflang: each, href: url[each] })),
      { hreflang: 'x-default', href: url.nl },
    ],
  };
}
