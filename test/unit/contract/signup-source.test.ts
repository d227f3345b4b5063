/** Where a signup came from, kept short, lower-case and of a small safe alphabet, or not at all. */
import { describe, expect, it } from 'vitest';
import { referrerHost, SOURCE_VALUE_MAX_LENGTH, sourceValue, utmSourceOf } from '#contract/signup-source';

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
