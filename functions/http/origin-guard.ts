import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';

// originVerifySecret is undefined locally, where there is no edge; behind CloudFront the Host is the API's,
// so siteHosts name the site's own.
export type RequestGuardSettings = { originVerifySecret: string | undefined; siteHosts: readonly string[] };

export type GuardRefusal = 'not_through_edge' | 'cross_site';

export function requestGuardSettingsFrom(environment: NodeJS.ProcessEnv): RequestGuardSettings {
  const secret = environment.ORIGIN_VERIFY_SECRET;
  // An empty secret would let anything through while looking configured.
  if (secret === '') throw new Error('ORIGIN_VERIFY_SECRET is set but empty');
  const siteHosts = (environment.SITE_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      const host = hostOf(origin);
      if (host === undefined) throw new Error(`SITE_ORIGINS holds "${origin}", which is not an origin`);
      return host;
    });
  return { originVerifySecret: secret, siteHosts };
}

function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` is on the request's own Host (an empty or missing one matches nothing) or in `siteHosts`. */
export function isOwnOrigin(event: APIGatewayProxyEventV2, url: string, siteHosts: readonly string[]) {
  const host = hostOf(url);
  return (
    host !== undefined && (host === hostOf(`http://${event.headers?.host ?? ''}`) || siteHosts.includes(host))
  );
}

// Hashed to one length, so the comparison takes the same time whatever was sent.
const digest = (value: string) => createHash('sha256').update(value).digest();

/** A GET or HEAD opening a mail's link, answered with its page: only a POST can be refused as cross-site. */
export const opensPage = (event: APIGatewayProxyEventV2, guard: RequestGuardSettings) =>
  ['GET', 'HEAD'].includes(event.requestContext.http.method) && !refusalOf(event, guard);

export function refusalOf(
  event: APIGatewayProxyEventV2,
  { originVerifySecret, siteHosts }: RequestGuardSettings,
): GuardRefusal | undefined {
  const headers = event.headers ?? {};
  if (originVerifySecret !== undefined) {
    const sent = headers[ORIGIN_VERIFY_HEADER];
    if (sent === undefined || !timingSafeEqual(digest(sent), digest(originVerifySecret)))
      return 'not_through_edge';
  }
  // A link opened from a mail is cross-site by nature; only a POST changes anything. Silent clients pass.
  if (event.requestContext.http.method !== 'POST') return undefined;
  const fetchSite = headers['sec-fetch-site']?.trim().toLowerCase();
  if (fetchSite === 'cross-site') return 'cross_site';
  const origin = headers.origin?.trim();
  // A page with `no-referrer` (the confirmation page keeps its token out of Referer) posts `Origin: null`;
  // the browser still says same-origin. Otherwise `null` (a sandboxed frame, a data: page) is another site.
  if (origin === undefined || (origin === 'null' && fetchSite === 'same-origin')) return undefined;
  return isOwnOrigin(event, origin, siteHosts) ? undefined : 'cross_site';
}
