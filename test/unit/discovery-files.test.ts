import { describe, expect, it } from 'vitest';
import { readSiteConfig } from '#contract/site-config';
import { robotsTxt, SECURITY_TXT_VALID_DAYS, securityTxt, sitemapXml } from '../../frontend/discovery-files';
import { INDEXED_PAGES, languageAlternates } from '../../frontend/src/i18n/page-addresses';

const DAY = 24 * 60 * 60 * 1000;
const XHTML = 'http://www.w3.org/1999/xhtml';

/** sitemap.xml as a crawler reads it: each <loc>, with its alternates by hreflang. */
function readSitemap(xml: string): { loc: string; alternates: Record<string, string> }[] {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(document.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return [...document.documentElement.children].map((url) => ({
    loc: url.getElementsByTagName('loc')[0]?.textContent ?? '',
    alternates: Object.fromEntries(
      [...url.getElementsByTagNameNS(XHTML, 'link')].map((link) => {
        expect(link.getAttribute('rel')).toBe('alternate');
        return [link.getAttribute('hreflang'), link.getAttribute('href')];
      }),
    ),
  }));
}

/** RFC 9116's fields, by name; a field given twice fails. */
function readSecurityTxt(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n').filter(Boolean)) {
    const [, name = '', value = ''] = line.match(/^([A-Za-z-]+): (.+)$/) ?? [];
    expect(name, `a field line: ${line}`).not.toBe('');
    expect(fields[name], `${name} once`).toBeUndefined();
    fields[name] = value;
  }
  return fields;
}

describe('robots.txt', () => {
  it('lets every crawler in and names the sitemap by its absolute address', () => {
    expect(robotsTxt('https://example.nl')).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://example.nl/sitemap.xml\n',
    );
  });
});

describe('sitemap.xml', () => {
  it('lists home and privacy in both languages, each with all languages and Dutch as x-default', () => {
    const urls = readSitemap(sitemapXml(INDEXED_PAGES.map(languageAlternates)));
    const origin = languageAlternates('home').url.nl.replace(/\/$/, '');
    expect(urls.map(({ loc }) => loc)).toEqual([
      `${origin}/`,
      `${origin}/en/`,
      `${origin}/privacy`,
      `${origin}/en/privacy`,
    ]);
    expect(urls[1]?.alternates).toEqual({
      nl: `${origin}/`,
      en: `${origin}/en/`,
      'x-default': `${origin}/`,
    });
    expect(urls[2]?.alternates).toEqual({
      nl: `${origin}/privacy`,
      en: `${origin}/en/privacy`,
      'x-default': `${origin}/privacy`,
    });
  });

  it('writes an address with XML’s special characters escaped, so it reads back as it was', () => {
    const odd = "https://example.nl/a?b=1&c='2'";
    const [url] = readSitemap(
      sitemapXml([{ url: { nl: odd, en: odd }, alternates: [{ hreflang: 'nl', href: odd }] }]),
    );
    expect(url).toEqual({ loc: odd, alternates: { nl: odd } });
  });
});

describe('security.txt (RFC 9116)', () => {
  const now = new Date('2026-11-24T09:30:15.123Z');

  it('names the contact address, the languages and its own https address', () => {
    const fields = readSecurityTxt(
      securityTxt({ siteUrl: 'https://example.nl', contactEmail: 'hallo@example.nl', now }),
    );
    expect(fields).toMatchObject({
      Contact: 'mailto:hallo@example.nl',
      'Preferred-Languages': 'nl, en',
      Canonical: 'https://example.nl/.well-known/security.txt',
    });
  });

  it('expires less than a year after the build, as an RFC 3339 time in UTC', () => {
    const { Expires = '' } = readSecurityTxt(
      securityTxt({ siteUrl: 'https://example.nl', contactEmail: 'hallo@example.nl', now }),
    );
    expect(Expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const days = (Date.parse(Expires) - now.getTime()) / DAY;
    expect(days).toBeGreaterThan(SECURITY_TXT_VALID_DAYS - 1);
    expect(days).toBeLessThan(365);
  });

  it('gives no Canonical for a site not served over https, which the RFC does not allow', () => {
    const fields = readSecurityTxt(
      securityTxt({ siteUrl: 'http://127.0.0.1:3000', contactEmail: 'hallo@example.nl', now }),
    );
    expect(fields.Canonical).toBeUndefined();
    expect(fields.Contact).toBe('mailto:hallo@example.nl');
  });
});

describe('the controller of the data (site config)', () => {
  it('is unset unless configured', () => {
    expect(readSiteConfig({}).controller).toEqual({});
  });

  it('takes its legal name, postal address and KvK number from MANDJE_CONTROLLER_*; empty is unset', () => {
    const { controller } = readSiteConfig({
      MANDJE_CONTROLLER_NAME: 'Mandje B.V.',
      MANDJE_CONTROLLER_ADDRESS: 'Voorbeeldstraat 1, 1234 AB Utrecht',
      MANDJE_CONTROLLER_KVK: '',
    });
    expect(controller).toEqual({
      legalName: 'Mandje B.V.',
      postalAddress: 'Voorbeeldstraat 1, 1234 AB Utrecht',
    });
  });
});
