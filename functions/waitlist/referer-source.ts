import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type SignupSource, utmSourceOf } from '#contract/signup-source';
import { hostOf, isOwnHost } from '../http/request-guard';

// A form posted without script cannot say where its visitor came from, but its Referer is the page's own
// address, query included (strict-origin-when-cross-origin keeps it whole on the same origin). Read only
// when that page is on this site: another site's address says nothing about this one's links.
export function utmSourceOfReferer(
  event: APIGatewayProxyEventV2,
  siteHosts: readonly string[],
): SignupSource {
  const referer = event.headers?.referer;
  if (referer === undefined || referer.length > 2_048) return {};
  const refererHost = hostOf(referer);
  if (refererHost === undefined || !isOwnHost(event, refererHost, siteHosts)) return {};
  return utmSourceOf(new URL(referer).search);
}
