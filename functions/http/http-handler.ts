import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiError } from '#contract/http-status';
import { METRIC, type MetricName, type Service } from '#contract/metrics';
import { type FaultAnswer, faultAnswerOf, logLevelOf } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';

/**
 * What every HTTP function does around its own work, written once: the time from the request's arrival to
 * its answer, and one log line per request with its metrics (Requests, the outcome's own metric, Latency,
 * Faults by class). Each function says only what its outcomes count and how it answers.
 */

type HttpEvent = APIGatewayProxyEventV2;
type HttpResponse = APIGatewayProxyStructuredResultV2;

/** What a request came to, and what its log line says of it. */
interface Answer<Outcome extends string> {
  outcome: Outcome;
  response: HttpResponse;
  /** For a fault: its class and the error's name (never its message, which may quote the request). */
  fault?: FaultAnswer['fault'];
  /** The signup's or the visit's language: adds `Joined` or `Visits` by Language. */
  language?: string;
  /** What else the line says (how it was asked, which check refused it): never an address or a token. */
  logged?: Record<string, string | undefined>;
}

/** The metric each of the API's error words counts, whichever route answers it (#contract/http-status). */
const ERROR_METRIC: Record<ApiError, MetricName> = {
  invalid_email: METRIC.invalid,
  invalid_request: METRIC.invalid,
  payload_too_large: METRIC.invalid,
  unsupported_media_type: METRIC.invalid,
  method_not_allowed: METRIC.invalid,
  already_registered: METRIC.alreadyRegistered,
  forbidden: METRIC.forbidden,
  rate_limited: METRIC.rateLimited,
  unavailable: METRIC.unavailable,
  internal: METRIC.internal,
};
const isApiError = (outcome: string): outcome is ApiError => Object.hasOwn(ERROR_METRIC, outcome);

interface HttpRoute<Outcome extends string> {
  service: Service;
  /**
   * The metric each of the route's own outcomes counts besides Requests (undefined: nothing more); an
   * error word counts ERROR_METRIC's.
   */
  outcomeMetric: Record<Exclude<Outcome, ApiError>, MetricName | undefined>;
  answer: (event: HttpEvent) => Promise<Answer<Outcome>>;
}

/**
 * The Lambda handler of a route. A permanent fault logs an error, a transient one a warning, anything else
 * info; the line is written whatever the log level, as it carries the metrics.
 */
export function httpHandler<Outcome extends string>({
  service,
  outcomeMetric,
  answer,
}: HttpRoute<Outcome>): (event: HttpEvent) => Promise<HttpResponse> {
  return async (event) => {
    const started = performance.now();
    const { outcome, response, fault, language, logged } = await answer(event);
    const counted = isApiError(outcome)
      ? ERROR_METRIC[outcome]
      : outcomeMetric[outcome as Exclude<Outcome, ApiError>];
    writeMetricLine({
      service,
      message: `${service} request`,
      level: logLevelOf(fault),
      counts: { [METRIC.requests]: 1, ...(counted ? { [counted]: 1 } : {}) },
      latencyMs: Math.round(performance.now() - started),
      language,
      faultClass: fault?.faultClass,
      fields: { outcome, status: response.statusCode ?? 500, ...logged, errorName: fault?.errorName },
      requestId: event.requestContext?.requestId,
    });
    return response;
  };
}

/**
 * The outcome of a route's work, or the fault answer when it threw: `unavailable` (503, "try again") only
 * for what a retry can fix, `internal` (500, alarmed) for the rest.
 */
export async function outcomeOrFault<Outcome>(
  work: () => Promise<Outcome>,
): Promise<{ outcome: Outcome; fault?: undefined } | FaultAnswer> {
  try {
    return { outcome: await work() };
  } catch (error) {
    return faultAnswerOf(error);
  }
}

/**
 * A JSON answer, never cached. `allow`: the route's methods, which a 405 names (RFC 9110); given only
 * with `method_not_allowed`.
 */
export function jsonAnswer(statusCode: number, body: unknown, allow?: string): HttpResponse {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(allow ? { allow } : {}),
    },
    body: JSON.stringify(body),
  };
}

/** A plain form post's answer: 303 to the result page at `location`, never cached. */
export function seeOther(location: string): HttpResponse {
  return { statusCode: 303, headers: { location, 'cache-control': 'no-store' }, body: '' };
}
