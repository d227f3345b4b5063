import { describe, expect, it, vi } from 'vitest';
import { maskEmailAddress } from '../../frontend/src/features/waitlist/mask-email-address';

describe('maskEmailAddress', () => {
  it('keeps the first character of the local part and of the domain, and the domain’s ending', () => {
    expect(maskEmailAddress('ann@example.nl')).toBe('a•••@e•••.nl');
  });

  it('hides only the first label of the domain: a subdomain’s parent stays', () => {
    expect(maskEmailAddress('ann.de.vries@mail.example.co.uk')).toBe('a•••@m•••.example.co.uk');
  });

  it('hides the length of a short local part or label too', () => {
    expect(maskEmailAddress('a@b.nl')).toBe('a•••@b•••.nl');
    expect(maskEmailAddress('jo@x.io')).toBe('j•••@x•••.io');
  });

  it('keeps a non-ASCII first character whole, however it was typed', () => {
    expect(maskEmailAddress('ëlla@voorbeeld.nl')).toBe('ë•••@v•••.nl');
    // e followed by a combining acute accent: one character on screen, two code points.
    expect(maskEmailAddress('e\u0301lla@voorbeeld.nl')).toBe('e\u0301•••@v•••.nl');
    expect(maskEmailAddress('😀fan@example.nl')).toBe('😀•••@e•••.nl');
    expect(maskEmailAddress('🇳🇱fan@example.nl')).toBe('🇳🇱•••@e•••.nl');
  });

  it('keeps a code point whole where the browser cannot split text into characters', () => {
    vi.stubGlobal('Intl', Object.create(Intl, { Segmenter: { value: undefined } }));

    expect(maskEmailAddress('😀fan@example.nl')).toBe('😀•••@e•••.nl');
    expect(maskEmailAddress('ëlla@voorbeeld.nl')).toBe('ë•••@v•••.nl');
  });

  it('shows an internationalised domain as it was typed, in Unicode or in its ASCII form', () => {
    expect(maskEmailAddress('ann@bücher.de')).toBe('a•••@b•••.de');
    expect(maskEmailAddress('ann@übung.de')).toBe('a•••@ü•••.de');
    expect(maskEmailAddress('ann@xn--bcher-kva.de')).toBe('a•••@x•••.de');
    expect(maskEmailAddress('иван@пример.рф')).toBe('и•••@п•••.рф');
  });

  it('splits the domain at every dot IDNA reads as one, keeping the dot as typed', () => {
    expect(maskEmailAddress('ann@ｂüｃｈｅｒ．de')).toBe('a•••@ｂ•••．de');
    expect(maskEmailAddress('ann@例え。テスト')).toBe('a•••@例•••。テスト');
  });

  it('keeps a trailing dot after the domain', () => {
    expect(maskEmailAddress('ann@example.nl.')).toBe('a•••@e•••.nl.');
  });

  it('never shows more of the address than the first characters and the domain’s ending', () => {
    const masked = maskEmailAddress('secret.name+tag@secretdomain.nl');
    expect(masked).not.toMatch(/secret|name|tag|domain/);
  });
});
