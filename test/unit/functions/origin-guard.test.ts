/**
 * The guard every API function runs first: the origin secret CloudFront adds, and the table of headers a
 * browser sends with a POST, from its own site and from another.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import {
  type RequestGuardSettings,
  refusalOf,
  requestGuardSettingsFrom,
} from '../../../functions/http/origin-guard';
import { httpApiEvent } from './http-api-event';

const SITE_HOST = 'mandje.nl';
const API_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

function request(headers: Record<string, string>, method = 'POST'): APIGatewayProxyEventV2 {
  const event = httpApiEvent({ method });
  event.headers = { 'content-type': 'application/json', ...headers };
  return event;
}

const open: RequestGuardSettings = { originVerifySecret: undefined, siteHosts: [] };
const behindCloudFront: RequestGuardSettings = {
  originVerifySecret: 's3cr3t-from-the-stack',
  siteHosts: [SITE_HOST, 'www.mandje.nl'],
};

describe('the origin secret', () => {
  it('refuses a request without the header when a secret is set', () => {
    expect(refusalOf(request({ host: API_HOST }), behindCloudFront)).toBe('not_through_edge');
  });

  it('refuses a wrong secret, one a character short, and one with a character more', () => {
    for (const sent of ['wrong', 's3cr3t-from-the-stac', 's3cr3t-from-the-stack!', ''])
      expect(refusalOf(request({ [ORIGIN_VERIFY_HEADER]: sent }), behindCloudFront), sent).toBe(
        'not_through_edge',
      );
  });

  it('lets the right secret through, for any method', () => {
    for (const method of ['POST', 'GET', 'HEAD'])
      expect(
        refusalOf(request({ [ORIGIN_VERIFY_HEADER]: 's3cr3t-from-the-stack' }, method), behindCloudFront),
      ).toBeUndefined();
  });

  it('refuses a GET without it too: the confirmation link is behind CloudFront as well', () => {
    expect(refusalOf(request({}, 'GET'), behindCloudFront)).toBe('not_through_edge');
  });

  it('checks nothing when no secret is set (the local runner)', () => {
    expect(refusalOf(request({}), open)).toBeUndefined();
  });

  it('is checked before the site: a cross-site post without the secret is refused as off the edge', () => {
    expect(refusalOf(request({ 'sec-fetch-site': 'cross-site' }), behindCloudFront)).toBe('not_through_edge');
  });
});

describe('same site only', () => {
  const local = { host: '127.0.0.1:3000' };
  /** [what the case is, the request's headers, whether it is refused as cross-site] */
  const CASES: [string, Record<string, string>, boolean][] = [
    ['curl: neither header', local, false],
    [
      'the page itself (same-origin)',
      { ...local, 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:3000' },
      false,
    ],
    ['same-site, no Origin', { ...local, 'sec-fetch-site': 'same-site' }, false],
    ['typed or bookmarked (none)', { ...local, 'sec-fetch-site': 'none' }, false],
    [
      'Origin equal to Host, no Sec-Fetch-Site (an older browser)',
      { ...local, origin: 'http://127.0.0.1:3000' },
      false,
    ],
    ['Origin host in another case', { host: 'Mandje.NL', origin: 'https://MANDJE.nl' }, false],
    ['cross-site', { ...local, 'sec-fetch-site': 'cross-site' }, true],
    ['cross-site, in capitals', { ...local, 'sec-fetch-site': 'Cross-Site' }, true],
    ['another site’s Origin', { ...local, origin: 'https://evil.example' }, true],
    [
      'another site’s Origin, marked same-origin',
      { ...local, 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
      true,
    ],
    ['Origin: null (a sandboxed frame, a data: page)', { ...local, origin: 'null' }, true],
    [
      'Origin: null from a cross-site page',
      { ...local, origin: 'null', 'sec-fetch-site': 'cross-site' },
      true,
    ],
    ['Origin: null from a same-site page', { ...local, origin: 'null', 'sec-fetch-site': 'same-site' }, true],
    [
      'Origin: null from the site’s own no-referrer page (the confirmation page)',
      { ...local, origin: 'null', 'sec-fetch-site': 'same-origin' },
      false,
    ],
    ['an Origin that is no URL', { ...local, origin: 'not an origin' }, true],
    ['two Origins joined', { ...local, origin: 'http://127.0.0.1:3000,https://evil.example' }, true],
    ['the same host on another port', { ...local, origin: 'http://127.0.0.1:4000' }, true],
    ['a look-alike host', { ...local, origin: 'http://127.0.0.1.evil.example:3000' }, true],
    ['no Host, and an Origin', { origin: 'http://127.0.0.1:3000' }, true],
  ];

  it.each(CASES)('%s', (_case, headers, refused) => {
    expect(refusalOf(request(headers), open)).toBe(refused ? 'cross_site' : undefined);
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
});

describe('the settings', () => {
  it('are open when nothing is set', () => {
    expect(requestGuardSettingsFrom({})).toEqual({ originVerifySecret: undefined, siteHosts: [] });
  });

  it('refuse to start with an empty secret, or a site origin that is not one', () => {
    expect(() => requestGuardSettingsFrom({ ORIGIN_VERIFY_SECRET: '' })).toThrow(/ORIGIN_VERIFY_SECRET/);
    expect(() => requestGuardSettingsFrom({ SITE_ORIGINS: 'mandje.nl' })).toThrow(/SITE_ORIGINS/);
  });
});
