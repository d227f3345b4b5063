import type { Locale } from '#contract/locales';
import { savingsClaims } from '@/config/savings-claims';
import { siteConfig } from '@/config/site';
import { fillInText } from './fill-in';
import { formattersFor } from './format';
import type { Messages } from './message-catalog';
import { type IndexedPage, languageAlternates } from './page-addresses';
import { isConfirmResultPage, isLeaveResultPage, isWaitlistResultPage, type Page } from './page-paths';

export type { Page };

export interface PageMetadata {
  locale: Locale;
  title: string;
  description: string;
  /** Absent for the not-found page, the pages a mail's link opens and the result pages, which must not be indexed. */
  canonicalUrl?: string;
  /**
   * The page sends no Referer with any request it makes: its address holds a confirmation or leave token,
   * which must not reach a log or another site that way.
   */
  noReferrer?: true;
  alternates: { hreflang: string; href: string }[];
  ogLocale: string;
  ogLocaleAlternate: string;
}

const OG_LOCALE: Record<Locale, string> = { nl: 'nl_NL', en: 'en_GB' };

export function pageMetadata(page: Page, locale: Locale, meta: Messages['meta']): PageMetadata {
  const copy = {
    ...meta,
    homeDescription: fillInText(meta.homeDescription, savingsClaims(formattersFor(locale))),
  };
  const common = {
    locale,
    ogLocale: OG_LOCALE[locale],
    ogLocaleAlternate: OG_LOCALE[locale === 'nl' ? 'en' : 'nl'],
  };
  if (page === 'not-found') {
    return { ...common, title: copy.notFoundTitle, description: copy.homeDescription, alternates: [] };
  }
  // One visitor's confirmation link, and what one visitor's form post led to: not pages for search
  // engines, so no canonical and no alternates.
  const unlisted = (title: string) => ({
    ...common,
    title: `${title} · ${siteConfig.brandName}`,
    description: copy.homeDescription,
    alternates: [],
  });
  if (page === 'confirm') return { ...unlisted(copy.confirmTitle), noReferrer: true };
  if (page === 'leave') return { ...unlisted(copy.leaveTitle), noReferrer: true };
  if (isWaitlistResultPage(page)) return unlisted(copy.waitlistResultTitles[page]);
  if (isConfirmResultPage(page)) return unlisted(copy.confirmResultTitles[page]);
  if (isLeaveResultPage(page)) return unlisted(copy.leaveResultTitles[page]);
  const { url, alternates } = languageAlternates(page satisfies IndexedPage);
  return {
    ...common,
    ...(page === 'privacy'
      ? { title: copy.privacyTitle, description: copy.privacyDescription }
      : { title: copy.homeTitle, description: copy.homeDescription }),
    canonicalUrl: url[locale],
    alternates,
  };
}

/** Brings the live document in line with a language switch (the prerendered HTML starts out right). */
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
