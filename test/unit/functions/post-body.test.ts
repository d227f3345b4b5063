/**
 * What every POST passes before its route reads it: the origin secret CloudFront adds, the headers a browser
 * sends from its own site and from another, and a body read strictly (a form's bytes, JSON's names).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import {
  parseFormBody,
  type RequestGuardSettings,
  refusalOf,
  requestGuardSettingsFrom,
} from '../../../functions/http/post-body';
import { parseJsonStrictly } from '../../../functions/strict-input';
import { apiGatewayEvent } from '../../../local/api-gateway-event';

const SITE_HOST = 'mandje.nl';
const API_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

const request = (headers: Record<string, string>, method = 'POST'): APIGatewayProxyEventV2 =>
  apiGatewayEvent({
    method,
    path: '/api/waitlist',
    headers: { 'content-type': 'application/json', ...headers },
  });

const open: RequestGuardSettings = { originVerifySecret: undefined, siteHosts: [] };
const behindCloudFront: RequestGuardSettings = {
  originVerifySecret: 's3cr3t-from-the-stack',
  siteHosts: [SITE_HOST, 'www.mandje.nl'],
};

describe('the origin secret', () => {
  it.each([
    [undefined, 'POST', 'not_through_edge'],
    ['wrong', 'POST', 'not_through_edge'],
    ['s3cr3t-from-the-stac', 'POST', 'not_through_edge'],
    ['s3cr3t-from-the-stack!', 'POST', 'not_through_edge'],
    ['', 'POST', 'not_through_edge'],
    [undefined, 'GET', 'not_through_edge'],
    ['s3cr3t-from-the-stack', 'POST', undefined],
    ['s3cr3t-from-the-stack', 'GET', undefined],
    ['s3cr3t-from-the-stack', 'HEAD', undefined],
  ])('sent as %j with a %s is refused as %s', (sent, method, refusal) => {
    const headers: Record<string, string> =
      sent === undefined ? { host: API_HOST } : { [ORIGIN_VERIFY_HEADER]: sent };
    expect(refusalOf(request(headers, method), behindCloudFront)).toBe(refusal);
  });

  it('is checked before the site, and not at all when no secret is set (the local runner)', () => {
    expect(refusalOf(request({ 'sec-fetch-site': 'cross-site' }), behindCloudFront)).toBe('not_through_edge');
    expect(refusalOf(request({}), open)).toBeUndefined();
  });
});

describe('same site only', () => {
  const OWN = 'http://127.0.0.1:3000';
  /** [what the case is, Sec-Fetch-Site, Origin, whether it is refused as cross-site], Host 127.0.0.1:3000 */
  const CASES: [string, string | undefined, string | undefined, boolean][] = [
    ['curl: neither header', undefined, undefined, false],
    ['the page itself (same-origin)', 'same-origin', OWN, false],
    ['same-site, no Origin', 'same-site', undefined, false],
    ['typed or bookmarked (none)', 'none', undefined, false],
    ['Origin equal to Host, no Sec-Fetch-Site (an older browser)', undefined, OWN, false],
    ['cross-site', 'cross-site', undefined, true],
    ['cross-site, in capitals', 'Cross-Site', undefined, true],
    ['another site’s Origin', undefined, 'https://evil.example', true],
    ['another site’s Origin, marked same-origin', 'same-origin', 'https://evil.example', true],
    ['Origin: null (a sandboxed frame, a data: page)', undefined, 'null', true],
    ['Origin: null from a cross-site page', 'cross-site', 'null', true],
    ['Origin: null from a same-site page', 'same-site', 'null', true],
    ['Origin: null from the site’s own no-referrer page', 'same-origin', 'null', false],
    ['an Origin that is no URL', undefined, 'not an origin', true],
    ['two Origins joined', undefined, `${OWN},https://evil.example`, true],
    ['the same host on another port', undefined, 'http://127.0.0.1:4000', true],
    ['a look-alike host', undefined, 'http://127.0.0.1.evil.example:3000', true],
  ];

  it.each(CASES)('%s', (_case, fetchSite, origin, refused) => {
    const headers = { host: '127.0.0.1:3000', 'sec-fetch-site': fetchSite, origin };
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
    expect(refusalOf(request(sent as Record<string, string>), open)).toBe(refused ? 'cross_site' : undefined);
  });

  it('compares hosts as URLs spell them, and refuses an Origin when there is no Host', () => {
    expect(refusalOf(request({ host: 'Mandje.NL', origin: 'https://MANDJE.nl' }), open)).toBeUndefined();
    expect(refusalOf(request({ origin: OWN }), open)).toBe('cross_site');
  });

  it('takes the site’s origins from SITE_ORIGINS, since behind CloudFront Host is the API’s', () => {
    const settings = requestGuardSettingsFrom({ SITE_ORIGINS: 'https://mandje.nl, https://www.mandje.nl' });
    const fromSite = (origin: string) => request({ host: API_HOST, origin, 'sec-fetch-site': 'same-origin' });

    expect(refusalOf(fromSite('https://mandje.nl'), settings)).toBeUndefined();
    expect(refusalOf(fromSite('https://www.mandje.nl'), settings)).toBeUndefined();
    expect(refusalOf(fromSite('https://shop.mandje.nl'), settings)).toBe('cross_site');
  });

  it('never refuses opening a link (GET, HEAD), which comes from a mail and so from another site', () => {
    for (const method of ['GET', 'HEAD'])
      expect(
        refusalOf(request({ 'sec-fetch-site': 'cross-site', origin: 'https://mail.example' }, method), open),
      ).toBeUndefined();
  });

  it('settings are open when nothing is set, and refuse to start with an empty secret or a site origin that is none', () => {
    expect(requestGuardSettingsFrom({})).toEqual({ originVerifySecret: undefined, siteHosts: [] });
    expect(() => requestGuardSettingsFrom({ ORIGIN_VERIFY_SECRET: '' })).toThrow(/ORIGIN_VERIFY_SECRET/);
    expect(() => requestGuardSettingsFrom({ SITE_ORIGINS: 'mandje.nl' })).toThrow(/SITE_ORIGINS/);
  });
});

describe('parseFormBody', () => {
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

  it('reads a browser’s form post, skipping empty pairs, and an empty body as no fields', () => {
    expect(parseFormBody('&email=ann%40example.nl&&language=nl&website=&')).toEqual({
      email: 'ann@example.nl',
      language: 'nl',
      website: '',
    });
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
    // Which one would count is a guess.
    ['a field sent twice', 'email=a%40x.nl&email=b%40x.nl'],
  ])('refuses %s, never replacing a byte with U+FFFD', (_case, body) => {
    expect(parseFormBody(body)).toBeUndefined();
  });

  it('keeps a character beside an escape and a lone % as it was sent, never as another character', () => {
    expect(parseFormBody('email=a%41%\u0140example.nl')).toEqual({ email: 'aA%\u0140example.nl' });
    expect(parseFormBody('email=ann%2B%\u0140gmail.com')).toEqual({ email: 'ann+%\u0140gmail.com' });
  });

  it('reads a leading ? as part of the first name, and Object.prototype’s names as plain fields', () => {
    expect(parseFormBody('?email=a%40b.nl')).toEqual({ '?email': 'a@b.nl' });
    const body = parseFormBody('__proto__=x&constructor=y&email=a');
    expect(body?.email).toBe('a');
    expect(body && Object.getPrototypeOf(body)).toBe(null);
  });
});

describe('a repeated name in JSON', () => {
  const REPEATED: [string, string][] = [
    ['at the top', '{"email":"a@example.nl","email":"b@example.nl"}'],
    ['spelled with an escape', '{"email":"a@example.nl","\\u0065mail":"b@example.nl"}'],
    ['in a nested object', '{"a":{"b":1,"b":2}}'],
    ['in an object inside an array', '[{"x":1},{"y":1,"y":1}]'],
    ['after a nested object with the same names', '{"a":{"a":1},"b":[{"a":2}],"a":3}'],
    ['around white space', '{ "a" : 1 ,\n "a" : 2 }'],
    ['__proto__ twice', '{"__proto__":1,"__proto__":2}'],
  ];

  it.each(REPEATED)('is found %s', (_where, text) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(parseJsonStrictly(text)).toBeUndefined();
  });

  const DISTINCT: [string, string][] = [
    ['one name per object, the same in sibling objects', '[{"a":1},{"a":2}]'],
    ['the same name in parent and child', '{"a":{"a":{"a":1}}}'],
    ['a value that looks like a name', '{"a":"a","b":"a"}'],
    ['braces, commas and quotes inside strings', '{"a":"{\\"a\\":1,","b":"}]\\\\","c":"a"}'],
    ['names that differ only in case', '{"Email":1,"email":2}'],
    ['no object at all', '["a","a"]'],
  ];

  it.each(DISTINCT)('is not seen where there is none: %s', (_where, text) => {
    expect(parseJsonStrictly(text)).toEqual(JSON.parse(text));
  });

  it('leaves text that is not JSON to be refused as such', () => {
    expect(parseJsonStrictly('{"a":1,')).toBeUndefined();
  });
});
