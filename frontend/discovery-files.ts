/** robots.txt, sitemap.xml and security.txt (RFC 9116), written by the build from the site's facts. */
import { LOCALES } from '#contract/locales';
import { SECURITY_TXT_PATH } from '#contract/site-routing';
import type { languageAlternates } from './src/i18n/page-metadata';

/** RFC 9116 2.5.5 recommends less than a year; every build writes a fresh date. */
const SECURITY_TXT_VALID_DAYS = 364;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const robotsTxt = (siteUrl: string) => `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;

/** One <url> per page and language, each listing all its languages (Google's sitemap hreflang form). */
export function sitemapXml(pages: readonly ReturnType<typeof languageAlternates>[]): string {
  const urls = pages.flatMap(({ url, alternates }) =>
    LOCALES.map((locale) =>
      [
        '  <url>',
        `    <loc>${escapeXml(url[locale])}</loc>`,
        ...alternates.map(
          ({ hreflang, href }) =>
            `    <xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`,
        ),
        '  </url>',
      ].join('\n'),
    ),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Canonical for an https site only: the RFC asks for https there. */
export function securityTxt(site: { siteUrl: string; contactEmail: string; now: Date }): string {
  const expires = new Date(site.now.getTime() + SECURITY_TXT_VALID_DAYS * 24 * 60 * 60 * 1000);
  return [
    `Contact: mailto:${site.contactEmail}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: nl, en',
    ...(site.siteUrl.startsWith('https://') ? [`Canonical: ${site.siteUrl}${SECURITY_TXT_PATH}`] : []),
    '',
  ].join('\n');
}
