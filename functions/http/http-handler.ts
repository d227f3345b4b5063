import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiError } from '#contract/http-status';
import type { Locale } from '#contract/locales';
import { METRIC, type MetricName, type Service } from '#contract/metrics';
import { withinDeadline } from '../store/store-client';
import { type FaultAnswer, faultAnswerOf, logLevelOf } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';
import type { RequestForm } from './request-body';
import type { GuardRefusal } from './request-guard';

type HttpEvent = APIGatewayProxyEventV2;
type HttpResponse = APIGatewayProxyStructuredResultV2;

export interface Decision<Outcome> {
  outcome: Outcome;
  form?: RequestForm;
  language?: Locale;
  refusal?: GuardRefusal;
  fault?: FaultAnswer['fault'];
}

interface Answer<Outcome extends string> {
  outcome: Outcome;
  response: HttpResponse;
  /** Never the error's message, which may quote the request. */
  fault?: FaultAnswer['fault'];
  language?: string;
  /** Never an address or a token. */
  logged?: Record<string, string | undefined>;
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
const isApiError = (outcome: string): outcome is ApiError => Object.hasOwn(ERROR_METRIC, outcome);

interface HttpRoute<Outcome extends string> {
  service: Service;
  /** Besides Requests; an error word counts ERROR_METRIC's. */
  outcomeMetric: Record<Exclude<Outcome, ApiError>, MetricName | undefined>;
  answer: (event: HttpEvent) => Promise<Answer<Outcome>>;
}

/** One log line per request, whatever the log level: it carries the metrics. */
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

/** The store work's outcome within its deadline, or its fault's answer. */
export async function outcomeOrFault<Outcome>(
  work: (abortSignal: AbortSignal) => Promise<Outcome>,
): Promise<{ outcome: Outcome; fault?: undefined } | FaultAnswer> {
  try {
    return { outcome: await withinDeadline(work) };
  } catch (error) {
    return faultAnswerOf(error);
  }
}

/** `allow`: the methods a 405 names (RFC 9110). */
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

export function seeOther(location: string): HttpResponse {
  return { statusCode: 303, headers: { location, 'cache-control': 'no-store' }, body: '' };
}
