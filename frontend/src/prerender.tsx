import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Locale } from '#contract/locales';
import { App } from './app';
import { siteConfig } from './config/site';
import { messages } from './i18n/messages';
import {
  INDEXED_PAGES,
  languageAlternates,
  type Page,
  type PageMetadata,
  pageMetadata,
} from './i18n/page-metadata';
import { SOCIAL_PREVIEW } from './i18n/page-paths';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function headTags(meta: PageMetadata): string {
  const tags = [
    // First in the head, for every request the page makes.
    meta.noReferrer ? '<meta name="referrer" content="no-referrer">' : '',
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.canonicalUrl
      ? `<link rel="canonical" href="${escapeHtml(meta.canonicalUrl)}">`
      : '<meta name="robots" content="noindex">',
    ...meta.alternates.map(
      ({ hreflang, href }) => `<link rel="alternate" hreflang="${hreflang}" href="${escapeHtml(href)}">`,
    ),
    '<meta property="og:type" content="website">',
    `<meta property="og:site_name" content="${escapeHtml(siteConfig.brandName)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    meta.canonicalUrl ? `<meta property="og:url" content="${escapeHtml(meta.canonicalUrl)}">` : '',
    `<meta property="og:locale" content="${meta.ogLocale}">`,
    `<meta property="og:locale:alternate" content="${meta.ogLocaleAlternate}">`,
    `<meta property="og:image" content="${escapeHtml(siteConfig.siteUrl + SOCIAL_PREVIEW.path[meta.locale])}">`,
    '<meta property="og:image:type" content="image/png">',
    `<meta property="og:image:width" content="${SOCIAL_PREVIEW.width}">`,
    `<meta property="og:image:height" content="${SOCIAL_PREVIEW.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(SOCIAL_PREVIEW.alt(messages[meta.locale].hero.title))}">`,
    '<meta name="twitter:card" content="summary_large_image">',
  ];
  return tags.filter(Boolean).join('\n    ');
}

export function prerenderPage(page: Page, locale: Locale) {
  const body = renderToString(
    <StrictMode>
      <App page={page} initialLocale={locale} />
    </StrictMode>,
  );
  return { lang: locale, head: headTags(pageMetadata(page, locale, messages[locale].meta)), body };
}

/** For robots.txt, sitemap.xml and security.txt (frontend/discovery-files.ts): the facts the pages used. */
export const discoveryFacts = {
  siteUrl: siteConfig.siteUrl,
  contactEmail: siteConfig.contactEmail,
  indexedPages: INDEXED_PAGES.map(languageAlternates),
};
