import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type SignupSource, utmSourceOf } from '#contract/signup-source';

/**
 * A form posted without the page's script cannot say where its visitor came from, but its Referer is the
 * page's own address, query included (strict-origin-when-cross-origin keeps it whole on the same origin):
 * its `utm_*` values are the landing URL's.
 */

/** The host of an http(s) URL as URL spells it (lower case, no default port); undefined for anything else. */
function httpHostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The UTM values of the page a request was posted from, read from its Referer only when that page is on
 * this site: the request's own Host, or one of `siteHosts` (SITE_ORIGINS, as the request guard reads it;
 * behind CloudFront the Host is the API's). Another site's address says nothing about this one's links.
 */
export function utmSourceOfReferer(
  event: APIGatewayProxyEventV2,
  siteHosts: readonly string[],
): SignupSource {
  const referer = event.headers?.referer;
  if (referer === undefined || referer.length > 2_048) return {};
  const refererHost = httpHostOf(referer);
  if (refererHost === undefined) return {};
  const host = event.headers.host;
  const sameSite =
    (host !== undefined && host !== '' && refererHost === httpHostOf(`http://${host}`)) ||
    siteHosts.includes(refererHost);
  return sameSite ? utmSourceOf(new URL(referer).search) : {};
}
