import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_ERROR_STATUS, type ApiError } from '#contract/http-status';
import { isLocale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { isRobotUserAgent, VISIT_LANGUAGE_PARAMETER } from '#contract/visit-counting';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault } from '../http/http-handler';
import { type RequestGuardSettings, refusalOf } from '../http/request-guard';
import { countVisit, type VisitCount, type VisitStores } from './count-visit';

// A home page's beacon, no body, answered 204; robots and requests without a client address go uncounted.

type VisitError = 'invalid_request' | 'method_not_allowed' | 'forbidden' | 'unavailable' | 'internal';
type Outcome = VisitCount | 'robot' | 'no_address' | VisitError;

const OUTCOME_METRIC: Record<Exclude<Outcome, ApiError>, MetricName | undefined> = {
  counted: METRIC.visits,
  seen: undefined,
  robot: undefined,
  no_address: undefined,
};

const isAnswered = (outcome: Outcome) => ['counted', 'seen', 'robot', 'no_address'].includes(outcome);

function respond(outcome: Outcome): APIGatewayProxyStructuredResultV2 {
  if (isAnswered(outcome)) return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
  return jsonAnswer(
    API_ERROR_STATUS[outcome as VisitError],
    { error: outcome },
    outcome === 'method_not_allowed' ? 'POST' : undefined,
  );
}

// Through CloudFront, CloudFront-Viewer-Address (`address:port`): API Gateway's source is CloudFront's, and
// X-Forwarded-For begins with whatever the client wrote. Locally, the socket's address.
function clientAddressOf(event: APIGatewayProxyEventV2, throughEdge: boolean): string | undefined {
  if (!throughEdge) return event.requestContext.http.sourceIp || undefined;
  const viewer = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
  const port = viewer.lastIndexOf(':');
  return port > 0 ? viewer.slice(0, port) : undefined;
}

async function decide(
  event: APIGatewayProxyEventV2,
  stores: VisitStores,
  guard: RequestGuardSettings,
): Promise<Decision<Outcome>> {
  const refusal = refusalOf(event, guard);
  if (refusal) return { outcome: 'forbidden', refusal };
  if (event.requestContext.http.method !== 'POST') return { outcome: 'method_not_allowed' };
  const language = new URLSearchParams(event.rawQueryString).get(VISIT_LANGUAGE_PARAMETER);
  if (!isLocale(language)) return { outcome: 'invalid_request' };
  const userAgent = event.headers?.['user-agent'] ?? '';
  if (isRobotUserAgent(userAgent)) return { outcome: 'robot', language };
  const clientAddress = clientAddressOf(event, guard.originVerifySecret !== undefined);
  if (clientAddress === undefined) return { outcome: 'no_address', language };
  const visit = { clientAddress, userAgent, site: event.requestContext.domainName, language };
  const counted = await outcomeOrFault((abortSignal) => countVisit(stores, visit, { abortSignal }));
  return { language, ...counted };
}

/** Logs never the address or user agent. */
export function visitRoute(
  stores: VisitStores,
  guard: RequestGuardSettings,
): (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2> {
  return httpHandler<Outcome>({
    service: 'visit',
    outcomeMetric: OUTCOME_METRIC,
    async answer(event) {
      const { outcome, language, refusal, fault } = await decide(event, stores, guard);
      return { outcome, response: respond(outcome), fault, language, logged: { refusal } };
    },
  });
}
