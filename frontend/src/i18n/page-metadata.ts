import { LOCALES, type Locale } from '#contract/locales';
import { savingsClaims } from '@/config/savings-claims';
import { siteConfig } from '@/config/site';
import { fillInText } from './fill-in';
import { formattersFor } from './format';
import type { Messages } from './messages/en';
import { type AddressedPage, PAGE_PATH, type Page } from './page-paths';

export type { Page };

/** Named in their heads and in sitemap.xml (prerender.tsx). */
export const INDEXED_PAGES = ['home', 'privacy'] as const satisfies readonly AddressedPage[];

/** x-default: Dutch. */
export function languageAlternates(page: (typeof INDEXED_PAGES)[number]) {
  const url = { nl: siteConfig.siteUrl + PAGE_PATH[page].nl, en: siteConfig.siteUrl + PAGE_PATH[page].en };
  const alternates = LOCALES.map((each) => ({ hreflang: each, href: url[each] }));
  return { url, alternates: [...alternates, { hreflang: 'x-default', href: url.nl }] };
}

export interface PageMetadata {
  locale: Locale;
  title: string;
  description: string;
  /** Absent for pages that must not be indexed. */
  canonicalUrl?: string;
  /** Its address holds a token, which must not reach a log or another site as a Referer. */
  noReferrer?: true;
  alternates: { hreflang: string; href: string }[];
  ogLocale: string;
  ogLocaleAlternate: string;
}

const OG_LOCALE: Record<Locale, string> = { nl: 'nl_NL', en: 'en_GB' };

export function pageMetadata(page: Page, locale: Locale, meta: Messages['meta']): PageMetadata {
  const common = {
    locale,
    description: fillInText(meta.homeDescription, savingsClaims(formattersFor(locale))),
    alternates: [],
    ogLocale: OG_LOCALE[locale],
    ogLocaleAlternate: OG_LOCALE[locale === 'nl' ? 'en' : 'nl'],
  };
  if (page === 'not-found') return { ...common, title: meta.notFoundTitle };
  // One visitor's link or form post: no canonical, no alternates.
  const unlisted = (title: string) => ({ ...common, title: `${title} · ${siteConfig.brandName}` });
  if (page === 'confirm') return { ...unlisted(meta.confirmTitle), noReferrer: true };
  if (page === 'leave') return { ...unlisted(meta.leaveTitle), noReferrer: true };
  if (page !== 'home' && page !== 'privacy')
    return unlisted(
      { ...meta.waitlistResultTitles, ...meta.confirmResultTitles, ...meta.leaveResultTitles }[page],
    );
  const { url, alternates } = languageAlternates(page);
  const privacy = page === 'privacy' && { title: meta.privacyTitle, description: meta.privacyDescription };
  return { ...common, title: meta.homeTitle, ...privacy, canonicalUrl: url[locale], alternates };
}

/** After a language switch (the prerendered HTML starts out right). */
export function applyPageMetadata(meta: PageMetadata): void {
  document.documentElement.lang = meta.locale;
  document.title = meta.title;
  const set = (selector: string, attribute: 'content' | 'href', value: string | undefined) => {
    const element = document.head.querySelector(selector);
    if (element && value !== undefined) element.setAttribute(attribute, value);
  };
  set('meta[name="description"]', 'content', meta.description);
  set('link[rel="canonical"]', 'href', meta.canonicalUrl);
  set('meta[property="og:title"]', 'content', meta.title);
  set('meta[property="og:description"]', 'content', meta.description);
  set('meta[property="og:url"]', 'content', meta.canonicalUrl);
  set('meta[property="og:locale"]', 'content', meta.ogLocale);
  set('meta[property="og:locale:alternate"]', 'content', meta.ogLocaleAlternate);
}
