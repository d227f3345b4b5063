import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { LOCALES, type Locale } from '#contract/locales';
import { SECURITY_TXT_PATH } from '#contract/site-routing';
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

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const alternate = ({ hreflang, href }: { hreflang: string; href: string }) =>
  `    <xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>\n`;

/** One <url> per page and language, each listing all its languages (Google's sitemap hreflang form). */
export function sitemapXml(pages: readonly ReturnType<typeof languageAlternates>[]): string {
  const urls = pages.flatMap(({ url, alternates }) =>
    LOCALES.map(
      (locale) =>
        `  <url>\n    <loc>${escapeXml(url[locale])}</loc>\n${alternates.map(alternate).join('')}  </url>\n`,
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('')}</urlset>
`;
}

/** RFC 9116: Expires under a year ahead, fresh every build; Canonical for an https site only, as it asks. */
export function securityTxt(site: { siteUrl: string; contactEmail: string; now: Date }): string {
  const expires = new Date(site.now.getTime() + 364 * 24 * 60 * 60 * 1000);
  return [
    `Contact: mailto:${site.contactEmail}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: nl, en',
    ...(site.siteUrl.startsWith('https://') ? [`Canonical: ${site.siteUrl}${SECURITY_TXT_PATH}`] : []),
    '',
  ].join('\n');
}

/** robots.txt, sitemap.xml and security.txt, naming the address and contact the pages name. */
export const discoveryFiles = (now: Date) => ({
  'robots.txt': `User-agent: *\nAllow: /\n\nSitemap: ${siteConfig.siteUrl}/sitemap.xml\n`,
  'sitemap.xml': sitemapXml(INDEXED_PAGES.map(languageAlternates)),
  [SECURITY_TXT_PATH.slice(1)]: securityTxt({ ...siteConfig, now }),
});
