/**
 * Where a signup came from, as the waitlist function reads it: UTM values and a referring host from a
 * JSON body, or UTM values from a form post's Referer when that is this site's page. Whatever a value is,
 * what is kept is short, lower-case and of a small safe alphabet, or nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  referrerHost,
  SOURCE_FIELDS,
  SOURCE_VALUE_MAX_LENGTH,
  sourceValue,
  utmSourceOf,
} from '#contract/signup-source';
import { parseJoinRequest } from '../../../functions/waitlist/join-waitlist';
import { httpApiEvent, jsonBody } from './http-api-event';

const ADDRESS = 'ann@example.nl';
const FORM = 'application/x-www-form-urlencoded';

/** A request as the page's script sends it, with `source` among its fields. */
const jsonRequest = (source: Record<string, unknown>) =>
  httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', ...source }) });

/** A form post as a browser without the script sends it, from the page at `referer`. */
function formPost(referer: string | undefined, { host = 'mandje.nl', fields = {} } = {}) {
  const event = httpApiEvent({
    contentType: FORM,
    body: new URLSearchParams({ email: ADDRESS, language: 'en', ...fields }).toString(),
  });
  event.headers = { ...event.headers, host, ...(referer === undefined ? {} : { referer }) };
  return event;
}

/** The source parseJoinRequest keeps, or `invalid` when it refuses the request. */
function keptSource(event: ReturnType<typeof httpApiEvent>, siteHosts: string[] = []) {
  const parsed = parseJoinRequest(event, { originVerifySecret: undefined, siteHosts });
  return 'outcome' in parsed ? `refused: ${parsed.outcome}` : parsed.request.source;
}

/** Values no record may hold as they are: each is cut to a safe value, or dropped. */
const HOSTILE = [
  ['too long', 'a'.repeat(SOURCE_VALUE_MAX_LENGTH + 1)],
  ['Unicode', 'nieuwsbrief✉'],
  ['a look-alike letter', 'nеwsletter'],
  ['a script', '<script>alert(1)</script>'],
  ['CR/LF', 'newsletter\r\nSet-Cookie: x=1'],
  ['a full URL', 'https://evil.example/path?q=1'],
  ['javascript:', 'javascript:alert(1)'],
  ['a space inside', 'news letter'],
  ['only spaces', '   '],
  ['a leading dot', '.hidden'],
  ['a quote', 'x"y'],
] as const;

describe('sourceValue and referrerHost', () => {
  it('trims and lower-cases a plain value', () => {
    expect(sourceValue('  NewsLetter_2026-12 ')).toBe('newsletter_2026-12');
    expect(sourceValue('x'.repeat(SOURCE_VALUE_MAX_LENGTH))).toHaveLength(SOURCE_VALUE_MAX_LENGTH);
  });

  it.each(HOSTILE)('keeps nothing of %s', (_, value) => {
    expect(sourceValue(value)).toBeUndefined();
  });

  it.each([
    ['https://www.Instagram.com/p/abc?igsh=123', 'instagram.com'],
    ['https://ann:secret@news.example.org/mail/42#top', 'news.example.org'],
    ['http://t.co/xyz', 't.co'],
    ['https://www.example.com:8443/', 'example.com'],
  ])('keeps only the host name of the referrer %s', (url, host) => {
    expect(referrerHost(url)).toBe(host);
  });

  it.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a file URL', 'file:///etc/passwd'],
    ['no URL at all', 'instagram'],
    ['an empty string', ''],
    ['a very long URL', `https://example.com/${'a'.repeat(3000)}`],
    ['a number', 42],
  ])('keeps no referrer from %s', (_, url) => {
    expect(referrerHost(url)).toBeUndefined();
  });

  it('reads the UTM values of a query, dropping the ones it may not keep', () => {
    expect(
      utmSourceOf('?utm_source=Newsletter&utm_medium=e%20mail&utm_campaign=Launch&utm_term=x&fbclid=abc'),
    ).toEqual({ utmSource: 'newsletter', utmCampaign: 'launch' });
  });
});

describe('the source of a request with JSON', () => {
  it('keeps the UTM values and the referring host, cleaned', () => {
    expect(
      keptSource(
        jsonRequest({
          utmSource: ' Newsletter ',
          utmMedium: 'EMAIL',
          utmCampaign: 'launch-2026',
          referrer: 'instagram.com',
        }),
      ),
    ).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'launch-2026',
      referrer: 'instagram.com',
    });
  });

  it('has no source when the request names none', () => {
    expect(keptSource(jsonRequest({}))).toBeUndefined();
  });

  it.each(HOSTILE)('drops %s in any field, keeps the others, and the signup still goes ahead', (_, value) => {
    for (const field of SOURCE_FIELDS) {
      const other = field === 'utmSource' ? 'utmCampaign' : 'utmSource';
      expect(keptSource(jsonRequest({ [field]: value, [other]: 'launch' }))).toEqual({ [other]: 'launch' });
      expect(keptSource(jsonRequest({ [field]: value }))).toBeUndefined();
    }
  });

  it('keeps no full URL sent as the referrer: the page sends a host name only', () => {
    expect(keptSource(jsonRequest({ referrer: 'https://ann:pw@instagram.com/p/1' }))).toBeUndefined();
  });

  it.each([
    ['a number', 42],
    ['an object', { value: 'newsletter' }],
    ['a list', ['newsletter']],
    ['null', null],
  ])('refuses a field of the wrong type (%s), as any malformed request', (_, value) => {
    expect(keptSource(jsonRequest({ utmSource: value }))).toBe('refused: invalid_request');
  });

  it('reads no Referer: a script says what it read itself', () => {
    const event = jsonRequest({});
    event.headers = { ...event.headers, host: 'mandje.nl', referer: 'https://mandje.nl/?utm_source=flyer' };

    expect(keptSource(event)).toBeUndefined();
  });
});

describe('the source of a form post, from its Referer', () => {
  it('reads the UTM values of this site’s page the form was posted from', () => {
    expect(
      keptSource(formPost('https://mandje.nl/en/?utm_source=Flyer&utm_medium=qr&utm_campaign=Market')),
    ).toEqual({ utmSource: 'flyer', utmMedium: 'qr', utmCampaign: 'market' });
  });

  it('matches the Host as a URL spells it: any case, no default port', () => {
    expect(
      keptSource(formPost('http://localhost:4173/?utm_source=flyer', { host: 'LOCALHOST:4173' })),
    ).toEqual({ utmSource: 'flyer' });
    expect(keptSource(formPost('http://mandje.nl/?utm_source=flyer', { host: 'mandje.nl:80' }))).toEqual({
      utmSource: 'flyer',
    });
  });

  it('reads a Referer on one of the site’s origins, as behind CloudFront, where the Host is the API’s', () => {
    const event = formPost('https://mandje.nl/?utm_source=flyer', {
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    });

    expect(keptSource(event, ['mandje.nl'])).toEqual({ utmSource: 'flyer' });
    expect(keptSource(event, ['www.mandje.nl'])).toBeUndefined();
  });

  it.each([
    ['another site', 'https://evil.example/?utm_source=spam'],
    ['a look-alike host', 'https://mandje.nl.evil.example/?utm_source=spam'],
    ['another port', 'https://mandje.nl:8443/?utm_source=spam'],
    ['not http', 'ftp://mandje.nl/?utm_source=spam'],
    ['no URL', 'mandje.nl/?utm_source=spam'],
    ['a very long one', `https://mandje.nl/?utm_source=spam&x=${'a'.repeat(3000)}`],
  ])('reads nothing from a Referer on %s', (_, referer) => {
    expect(keptSource(formPost(referer))).toBeUndefined();
  });

  it('has no source without a Referer, or with one that carries no UTM values', () => {
    expect(keptSource(formPost(undefined))).toBeUndefined();
    expect(keptSource(formPost('https://mandje.nl/en/'))).toBeUndefined();
  });

  it.each(HOSTILE)('drops %s as a Referer’s utm_source', (_, value) => {
    const referer = `https://mandje.nl/?${new URLSearchParams({ utm_source: value, utm_medium: 'qr' })}`;

    expect(keptSource(formPost(referer))).toEqual({ utmMedium: 'qr' });
  });

  it('prefers what the body says, and fills in the rest from the Referer', () => {
    const event = formPost('https://mandje.nl/?utm_source=flyer&utm_medium=qr', {
      fields: { utmSource: 'poster', referrer: 'instagram.com' },
    });

    expect(keptSource(event)).toEqual({ utmSource: 'poster', utmMedium: 'qr', referrer: 'instagram.com' });
  });

  it('never has a referrer from the Referer: that is this site, not where the visitor came from', () => {
    expect(keptSource(formPost('https://mandje.nl/?utm_source=flyer'))).toEqual({
      utmSource: 'flyer',
    });
  });
});
