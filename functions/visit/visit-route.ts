import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_ERROR_STATUS, type ApiError } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { isRobotUserAgent, VISIT_LANGUAGE_PARAMETER } from '#contract/visit-counting';
import { httpHandler, jsonAnswer, outcomeOrFault } from '../http/http-handler';
import { type GuardRefusal, type RequestGuardSettings, refusalOf } from '../http/request-guard';
import { withinDeadline } from '../store/store-client';
import type { FaultAnswer } from '../telemetry/fault-class';
import { countVisit, type VisitCount, type VisitStores } from './count-visit';

/**
 * `POST /api/visit?lang=nl`: a home page's beacon (#contract/visit-counting), with no body, answered 204 and
 * never read by the page. Refused like every other post when another site's page made it or it came around
 * the edge; a robot that says so, or a request with no client address to tell visitors apart, is answered
 * the same and not counted. It sends no mail and keeps nothing but a hash until the day ends.
 */

type VisitError = 'invalid_request' | 'method_not_allowed' | 'forbidden' | 'unavailable' | 'internal';
type Outcome = VisitCount | 'robot' | 'no_address' | VisitError;

/** What each of its own outcomes counts besides Requests; error words count http-handler.ts's. */
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

/**
 * The visitor's IP address. Through CloudFront, the address CloudFront saw, in the CloudFront-Viewer-Address
 * header (`address:port`) that the API's origin request policy (AllViewerExceptHostHeader) forwards: API
 * Gateway's own source address is CloudFront's, and X-Forwarded-For begins with whatever the client wrote
 * there. Locally, with no edge, the socket's address that the runner's adapter puts in the event.
 */
function clientAddressOf(event: APIGatewayProxyEventV2, throughEdge: boolean): string | undefined {
  if (!throughEdge) return event.requestContext.http.sourceIp || undefined;
  const viewer = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
  const port = viewer.lastIndexOf(':');
  return port > 0 ? viewer.slice(0, port) : undefined;
}

interface Decision {
  outcome: Outcome;
  language?: Locale;
  refusal?: GuardRefusal;
  fault?: FaultAnswer['fault'];
}

async function decide(
  event: APIGatewayProxyEventV2,
  stores: VisitStores,
  guard: RequestGuardSettings,
): Promise<Decision> {
  const refusal = refusalOf(event, guard);
  if (refusal) return { outcome: 'forbidden', refusal };
  if (event.requestContext.http.method !== 'POST') return { outcome: 'method_not_allowed' };
  // A body, if any, is not read: the beacon has none.
  const language = new URLSearchParams(event.rawQueryString).get(VISIT_LANGUAGE_PARAMETER);
  if (!isLocale(language)) return { outcome: 'invalid_request' };
  const userAgent = event.headers?.['user-agent'] ?? '';
  if (isRobotUserAgent(userAgent)) return { outcome: 'robot', language };
  const clientAddress = clientAddressOf(event, guard.originVerifySecret !== undefined);
  if (clientAddress === undefined) return { outcome: 'no_address', language };
  const visit = { clientAddress, userAgent, site: event.requestContext.domainName, language };
  const counted = await outcomeOrFault(() =>
    withinDeadline((abortSignal) => countVisit(stores, visit, { abortSignal })),
  );
  return { language, ...counted };
}

/** The route's Lambda handler: one log line per beacon, with its metrics. Never the address or user agent. */
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
