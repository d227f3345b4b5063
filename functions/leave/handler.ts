import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { API_ERROR_STATUS, type ApiError, type BodyRefusal } from '#contract/http-status';
import {
  LEAVE_LANGUAGE_PARAMETER,
  LEAVE_RESULT_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
  leavePageFile,
} from '#contract/leave';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage } from '../http/cross-site-page';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked, readRequestBody } from '../http/request-body';
import { type GuardRefusal, refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { tokenPage } from '../http/token-page';
import { storeFromEnvironment } from '../store/store-client';
import { type LeaveResult, leavePerson } from './leave-person';
import { isOneClickBody } from './one-click-body';

// GET shows the page and removes no one (link scanners open links); POST leaves: RFC 8058 one-click gets
// plain text, the form 303, the script JSON. Answers never tell whether the token belonged to anyone.

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage(process.env.LEAVE_PAGES_DIR, leavePageFile, LEAVE_TOKEN_PLACEHOLDER, [
  LEAVE_LANGUAGE_PARAMETER,
  LEAVE_TOKEN_PARAMETER,
]);

const leaveRequestSchema = z.object({
  [LEAVE_TOKEN_FIELD]: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
  language: z.optional(z.enum(LOCALES)),
});

type LeaveError = BodyRefusal | 'forbidden' | 'unavailable' | 'internal';
type Outcome = LeaveResult | LeaveError;

type Asked = 'one-click' | 'form' | 'json';

const ONE_CLICK_TEXT: Record<Locale, { done: string; fault: string; refused: string }> = {
  nl: {
    done: 'Je bent afgemeld voor de wachtlijst van Mandje. We mailen je niet meer.',
    fault: 'Dat lukte nu even niet. Probeer het later nog eens.',
    refused: 'Dit verzoek is niet verwerkt.',
  },
  en: {
    done: 'You’ve left the Mandje waitlist. We won’t email you again.',
    fault: 'That didn’t work just now. Please try again later.',
    refused: 'This request was not handled.',
  },
};

type LeaveDecision = Decision<Outcome> & { asked?: Asked };

const isResult = (outcome: Outcome): outcome is LeaveResult => outcome === 'left' || outcome === 'unknown';
const isFault = (outcome: Outcome) => outcome === 'unavailable' || outcome === 'internal';

function respond({
  outcome,
  asked,
  language = DEFAULT_LOCALE,
}: LeaveDecision): APIGatewayProxyStructuredResultV2 {
  if (asked === 'one-click') {
    const text = ONE_CLICK_TEXT[language];
    return {
      statusCode: isResult(outcome) ? 200 : API_ERROR_STATUS[outcome],
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      body: `${isResult(outcome) ? text.done : isFault(outcome) ? text.fault : text.refused}\n`,
    };
  }
  if (asked === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
  if (asked === 'form')
    return seeOther(LEAVE_RESULT_PATH[isResult(outcome) ? 'done' : 'try-again'][language]);
  return jsonAnswer(
    isResult(outcome) ? 200 : API_ERROR_STATUS[outcome],
    isResult(outcome) ? { result: 'done' } : { error: outcome },
    outcome === 'method_not_allowed' ? 'GET, HEAD, POST' : undefined,
  );
}

const OUTCOME_METRIC: Record<Exclude<Outcome | 'page', ApiError>, MetricName | undefined> = {
  page: undefined,
  left: METRIC.left,
  unknown: undefined,
};

async function leave(token: string, asked: Asked, language: Locale | undefined): Promise<LeaveDecision> {
  const left = await outcomeOrFault((abortSignal) => leavePerson(store, token, { abortSignal }));
  return { asked, language, ...left };
}

async function decide(
  event: APIGatewayProxyEventV2,
  refusal: GuardRefusal | undefined,
): Promise<LeaveDecision> {
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  const query = new URLSearchParams(event.rawQueryString);
  const queryToken = query.get(LEAVE_TOKEN_PARAMETER);
  const queryLanguage = query.get(LEAVE_LANGUAGE_PARAMETER);
  const language = isLocale(queryLanguage) ? queryLanguage : undefined;
  // Mail providers post one-click from their own servers: the link's secret token authorises it.
  if (isOneClickBody(event)) {
    if (!queryToken) return { outcome: 'invalid_request', asked: 'one-click', language };
    return leave(queryToken, 'one-click', language);
  }
  if (refusal === 'cross_site') {
    const asked = howAsked(event);
    return { outcome: 'forbidden', refusal, asked: asked.form, language: asked.language ?? language };
  }
  const body = readRequestBody(event);
  if (!body.ok) return { outcome: body.error, asked: body.form, language };
  const shape = leaveRequestSchema.safeParse(body.fields);
  const token = shape.success ? (shape.data[LEAVE_TOKEN_FIELD] ?? queryToken) : undefined;
  const asked = { asked: body.form, language: (shape.success ? shape.data.language : undefined) ?? language };
  if (token === undefined || token === null) return { outcome: 'invalid_request', ...asked };
  return leave(token, body.form, asked.language);
}

// Logs never the token, never an address.
export const handler = httpHandler<Outcome | 'page'>({
  service: 'leave',
  outcomeMetric: OUTCOME_METRIC,
  async answer(event) {
    const refusal = refusalOf(event, guard);
    const method = event.requestContext.http.method;
    if (refusal === undefined && (method === 'GET' || method === 'HEAD'))
      return { outcome: 'page', response: showPage(event) };
    const decision = await decide(event, refusal);
    const { outcome, asked, fault } = decision;
    return { outcome, response: respond(decision), fault, logged: { asked, refusal: decision.refusal } };
  },
});
