import { describe, expect, it } from 'vitest';
import { parseFormBody } from '../../../functions/http/post-body';

describe('parseFormBody', () => {
  it('reads the fields of a form post as a browser sends them', () => {
    expect(parseFormBody('email=ann%40example.nl&language=nl&website=')).toEqual({
      email: 'ann@example.nl',
      language: 'nl',
      website: '',
    });
  });

  it.each([
    ['a plus as a space', 'q=a+b', 'a b'],
    ['an escaped plus as a plus', 'q=a%2Bb', 'a+b'],
    ['escapes in either case', 'q=%c3%A9', 'é'],
    ['two-byte UTF-8', 'q=jos%C3%A9', 'josé'],
    ['four-byte UTF-8', 'q=%F0%9F%98%80', '😀'],
    ['a % that starts no escape as itself', 'q=100%', '100%'],
    ['a % with one hex digit as itself', 'q=%4', '%4'],
    ['a % before non-hex as itself', 'q=%zz', '%zz'],
    ['an equals sign in the value', 'q=a=b', 'a=b'],
    ['no equals sign as an empty value', 'q', ''],
    ['text sent unescaped', 'q=josé', 'josé'],
  ])('reads %s', (_case, body, value) => {
    expect(parseFormBody(body)).toEqual({ q: value });
  });

  it('skips empty pairs and reads an empty body as no fields', () => {
    expect(parseFormBody('&&a=1&&')).toEqual({ a: '1' });
    expect(parseFormBody('')).toEqual({});
  });

  it.each([
    ['a lone continuation byte', 'email=%80'],
    ['a byte that is never UTF-8', 'email=ann%FF%40x.nl'],
    ['a truncated sequence', 'email=jos%C3'],
    ['an overlong encoding of "/"', 'email=%C0%AF'],
    ['an encoded surrogate', 'email=%ED%A0%80'],
    ['a Latin-1 é, as a form in another charset would send it', 'email=jos%E9%40x.nl'],
    ['broken bytes in a field name', '%FF=1'],
  ])('refuses %s rather than replacing it with U+FFFD', (_case, body) => {
    expect(parseFormBody(body)).toBeUndefined();
  });

  it('keeps a character beside an escape and a lone % as it was sent, never as another character', () => {
    expect(parseFormBody('email=a%41%\u0140example.nl')).toEqual({ email: 'aA%\u0140example.nl' });
    expect(parseFormBody('email=ann%2B%\u0140gmail.com')).toEqual({ email: 'ann+%\u0140gmail.com' });
  });

  it('reads a leading ? as part of the first name, as it was sent', () => {
    expect(parseFormBody('?email=a%40b.nl')).toEqual({ '?email': 'a@b.nl' });
  });

  it('refuses a field sent twice: which one would count is a guess', () => {
    expect(parseFormBody('email=a%40x.nl&email=b%40x.nl')).toBeUndefined();
  });

  it('keeps field names that are also Object.prototype names as plain fields', () => {
    const body = parseFormBody('__proto__=x&constructor=y&email=a');
    expect(body?.email).toBe('a');
    expect(body && Object.getPrototypeOf(body)).toBe(null);
  });
});
