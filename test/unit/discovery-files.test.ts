import { describe, expect, it } from 'vitest';
import { securityTxt, sitemapXml } from '../../frontend/src/prerender';

// What the built site serves is test/e2e/home.spec.ts's; these are the cases the site's own facts never show.
describe('discovery files', () => {
  it('escape XML’s special characters in a sitemap address, so it reads back as it was', () => {
    const odd = "https://example.nl/a?b=1&c='2'";
    const xml = sitemapXml([{ url: { nl: odd, en: odd }, alternates: [{ hreflang: 'nl', href: odd }] }]);
    const document = new DOMParser().parseFromString(xml, 'application/xml');
    expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(document.getElementsByTagName('loc')[0]?.textContent).toBe(odd);
    expect(document.getElementsByTagName('xhtml:link')[0]?.getAttribute('href')).toBe(odd);
  });

  it('give security.txt no Canonical for a site not served over https, which RFC 9116 does not allow', () => {
    const now = new Date('2026-11-24T09:30:15.123Z');
    const site = { contactEmail: 'hallo@example.nl', now };
    expect(securityTxt({ ...site, siteUrl: 'https://example.nl' })).toContain(
      'Canonical: https://example.nl/.well-known/security.txt',
    );
    expect(securityTxt({ ...site, siteUrl: 'http://127.0.0.1:3000' })).not.toContain('Canonical');
  });
});
