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
import { httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked, readRequestBody } from '../http/request-body';
import { type GuardRefusal, refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { tokenPage } from '../http/token-page';
import { storeFromEnvironment, withinDeadline } from '../store/store-client';
import type { FaultAnswer } from '../telemetry/fault-class';
import { type LeaveResult, leavePerson } from './leave-person';
import { isOneClickBody } from './one-click-body';

/**
 * `/api/leave`: the personal leave link in every mail (#contract/leave). GET (and HEAD) shows the page with
 * one button, and removes no one: link scanners open links. POST removes the person the token belongs to:
 * a mail client's RFC 8058 one-click POST gets a short 200, the page's plain form 303 to a result page, its
 * script JSON. Every answer is the same whether or not the token belonged to anyone.
 */

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage({
  dir: process.env.LEAVE_PAGES_DIR,
  fileOf: leavePageFile,
  languageParameter: LEAVE_LANGUAGE_PARAMETER,
  tokenParameter: LEAVE_TOKEN_PARAMETER,
  placeholder: LEAVE_TOKEN_PLACEHOLDER,
});

const leaveRequestSchema = z.object({
  [LEAVE_TOKEN_FIELD]: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
  language: z.optional(z.enum(LOCALES)),
});

type LeaveError = BodyRefusal | 'forbidden' | 'unavailable' | 'internal';
type Outcome = LeaveResult | LeaveError;

/** How the POST came: from a mail client (RFC 8058), the page's form without a script, or its script. */
type Asked = 'one-click' | 'form' | 'json';

/** The one-click answer, which a mail client may show: the same whoever the token was. */
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

const queryOf = (event: APIGatewayProxyEventV2) => new URLSearchParams(event.rawQueryString);

function languageOfQuery(event: APIGatewayProxyEventV2): Locale | undefined {
  const requested = queryOf(event).get(LEAVE_LANGUAGE_PARAMETER);
  return isLocale(requested) ? requested : undefined;
}

interface Decision {
  outcome: Outcome;
  asked?: Asked;
  language: Locale;
  /** For `forbidden`: which check refused it. */
  refusal?: GuardRefusal;
  fault?: FaultAnswer['fault'];
}

const isResult = (outcome: Outcome): outcome is LeaveResult => outcome === 'left' || outcome === 'unknown';
const isFault = (outcome: Outcome) => outcome === 'unavailable' || outcome === 'internal';

function respond({ outcome, asked, language }: Decision): APIGatewayProxyStructuredResultV2 {
  if (asked === 'one-click') {
    const text = ONE_CLICK_TEXT[language];
    return {
      statusCode: isResult(outcome) ? 200 : API_ERROR_STATUS[outcome],
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      body: `${isResult(outcome) ? text.done : isFault(outcome) ? text.fault : text.refused}\n`,
    };
  }
  // A visitor whose form another site made gets a page that says so.
  if (asked === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
  if (asked === 'form')
    return seeOther(LEAVE_RESULT_PATH[isResult(outcome) ? 'done' : 'try-again'][language]);
  return jsonAnswer(
    isResult(outcome) ? 200 : API_ERROR_STATUS[outcome],
    isResult(outcome) ? { result: 'done' } : { error: outcome },
    outcome === 'method_not_allowed' ? 'GET, HEAD, POST' : undefined,
  );
}

/** What each of its own outcomes counts besides Requests; error words count http-handler.ts's. */
const OUTCOME_METRIC: Record<Exclude<Outcome | 'page', ApiError>, MetricName | undefined> = {
  page: undefined,
  left: METRIC.left,
  unknown: undefined,
};

async function leave(token: string, asked: Asked, language: Locale): Promise<Decision> {
  const left = await outcomeOrFault(() =>
    withinDeadline((abortSignal) => leavePerson(store, token, { abortSignal })),
  );
  return { asked, language, ...left };
}

async function decide(event: APIGatewayProxyEventV2, refusal: GuardRefusal | undefined): Promise<Decision> {
  const queryLanguage = languageOfQuery(event);
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal, language: DEFAULT_LOCALE };
  const queryToken = queryOf(event).get(LEAVE_TOKEN_PARAMETER);
  // A mail provider posts from its own servers, webmail from its own origin: for the one-click body, the
  // secret token in the link is what authorises the request, not where it came from.
  if (isOneClickBody(event)) {
    const language = queryLanguage ?? DEFAULT_LOCALE;
    if (!queryToken) return { outcome: 'invalid_request', asked: 'one-click', language };
    return leave(queryToken, 'one-click', language);
  }
  if (refusal === 'cross_site') {
    const { form, language } = howAsked(event);
    return {
      outcome: 'forbidden',
      refusal,
      asked: form,
      language: language ?? queryLanguage ?? DEFAULT_LOCALE,
    };
  }
  const body = readRequestBody(event);
  if (!body.ok) return { outcome: body.error, asked: body.form, language: queryLanguage ?? DEFAULT_LOCALE };
  const shape = leaveRequestSchema.safeParse(body.fields);
  const language = (shape.success ? shape.data.language : undefined) ?? queryLanguage ?? DEFAULT_LOCALE;
  const token = shape.success ? (shape.data[LEAVE_TOKEN_FIELD] ?? queryToken) : undefined;
  if (token === undefined || token === null)
    return { outcome: 'invalid_request', asked: body.form, language };
  return leave(token, body.form, language);
}

/** One line per request, with its metrics. Never the token, never an address. */
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
