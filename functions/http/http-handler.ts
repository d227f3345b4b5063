import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiError } from '#contract/http-status';
import type { Locale } from '#contract/locales';
import { METRIC, type MetricName, type Service } from '#contract/metrics';
import { STORE_DEADLINE_MS } from '../store/store-client';
import { errorNameOf, type FaultClass, faultClassOf, isTransient } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';

export type RequestForm = 'json' | 'form';

export type GuardRefusal = 'not_through_edge' | 'cross_site';

/** What a route made of a request; it is logged, so never an address or a token. */
export interface Decision<Outcome> {
  outcome: Outcome;
  /** `one-click`: the leave route's RFC 8058 post. */
  form?: RequestForm | 'one-click';
  language?: Locale;
  refusal?: GuardRefusal;
  source?: string;
  /** Never the error's message, which may quote the request. */
  fault?: { faultClass: FaultClass; errorName: string };
  /** The mailbox simulator's (`waitlist smoke`): answered as any, its outcome's metric not counted. */
  uncounted?: boolean;
}

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

/** One log line per request, whatever the log level: it carries the metrics. */
export function httpHandler<Outcome extends string>(
  service: Service,
  outcomeMetric: Record<Exclude<Outcome, ApiError>, MetricName | undefined>,
  decide: (event: APIGatewayProxyEventV2) => Promise<Decision<Outcome>>,
  respond: (decision: Decision<Outcome>, event: APIGatewayProxyEventV2) => APIGatewayProxyStructuredResultV2,
): (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2> {
  const metricOf: Record<string, MetricName | undefined> = { ...ERROR_METRIC, ...outcomeMetric };
  return async (event) => {
    const started = performance.now();
    const decision = await decide(event);
    const { outcome, fault, form, refusal, source } = decision;
    const response = respond(decision, event);
    const status = response.statusCode ?? 500;
    const counted = decision.uncounted ? undefined : metricOf[outcome];
    writeMetricLine({
      service,
      message: `${service} request`,
      level: !fault ? 'INFO' : isTransient(fault.faultClass) ? 'WARN' : 'ERROR',
      counts: { [METRIC.requests]: 1, ...(counted ? { [counted]: 1 } : {}) },
      latencyMs: Math.round(performance.now() - started),
      language: decision.language,
      faultClass: fault?.faultClass,
      fields: { outcome, status, form, refusal, source, errorName: fault?.errorName },
      requestId: event.requestContext?.requestId,
    });
    return response;
  };
}

/** The store work's outcome within STORE_DEADLINE_MS, or its fault's answer: 503 when a retry may help. */
export async function outcomeOrFault<Outcome>(
  work: (abortSignal: AbortSignal) => Promise<Outcome>,
): Promise<Pick<Decision<Outcome | 'unavailable' | 'internal'>, 'outcome' | 'fault'>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer from the store within ${STORE_DEADLINE_MS} ms`);
      error.name = 'StoreDeadlineExceeded';
      controller.abort(error);
      reject(error);
    }, STORE_DEADLINE_MS);
  });
  try {
    return { outcome: await Promise.race([work(controller.signal), deadline]) };
  } catch (error) {
    const faultClass = faultClassOf(error);
    const fault = { faultClass, errorName: errorNameOf(error) };
    return { outcome: isTransient(faultClass) ? 'unavailable' : 'internal', fault };
  } finally {
    clearTimeout(timer);
  }
}

/** `allow`: the methods a 405 names (RFC 9110). */
export function jsonAnswer(statusCode: number, body: unknown, allow?: string) {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(allow && statusCode === 405 ? { allow } : {}),
    },
    body: JSON.stringify(body),
  };
}

export function seeOther(location: string) {
  return { statusCode: 303, headers: { location, 'cache-control': 'no-store' }, body: '' };
}
