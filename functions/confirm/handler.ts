import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_RESULT_PATH,
  type ConfirmError,
  type ConfirmResponse,
  type ConfirmResult,
  confirmPageFile,
  LANGUAGE_PARAMETER,
  TOKEN_FIELD,
  TOKEN_PARAMETER,
  TOKEN_PLACEHOLDER,
} from '#contract/confirmation';
import type { ApiError } from '#contract/http-status';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage } from '../http/cross-site-page';
import { httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked, type RequestForm, readRequestBody } from '../http/request-body';
import { type GuardRefusal, refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { tokenPage } from '../http/token-page';
import { storeFromEnvironment, withinDeadline } from '../store/store-client';
import type { FaultAnswer } from '../telemetry/fault-class';
import { confirmSignup } from './confirm-signup';

/**
 * `/api/confirm`: the page a confirmation link opens (GET, which never confirms: mail scanners open
 * links), and the press of its button (POST), which does. Answers as the waitlist API does: JSON for the
 * page's script, 303 to a result page for a plain form post.
 */

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage({
  dir: process.env.CONFIRM_PAGES_DIR,
  fileOf: confirmPageFile,
  languageParameter: LANGUAGE_PARAMETER,
  tokenParameter: TOKEN_PARAMETER,
  placeholder: TOKEN_PLACEHOLDER,
});

const confirmRequestSchema = z.object({
  [TOKEN_FIELD]: z.string().check(z.maxLength(MAX_REQUEST_BYTES)),
  language: z.optional(z.enum(LOCALES)),
});

type Outcome = ConfirmResult | ConfirmError;

function respond(
  outcome: Outcome,
  form: RequestForm | undefined,
  language: Locale,
): APIGatewayProxyStructuredResultV2 {
  // A visitor whose form another site made gets a page that says so, not a result page.
  if (form === 'form' && outcome === 'forbidden') return crossSitePage('confirmation', language);
  const isResult = (CONFIRM_HTTP_STATUS as Record<string, number>)[outcome] === undefined;
  const fault = outcome === 'unavailable' || outcome === 'internal';
  if (form === 'form' && (isResult || fault || outcome === 'invalid_request')) {
    const page = isResult ? (outcome as ConfirmResult) : fault ? 'try-again' : 'invalid';
    return seeOther(CONFIRM_RESULT_PATH[page][language]);
  }
  const body: ConfirmResponse = isResult
    ? { result: outcome as ConfirmResult }
    : { error: outcome as ConfirmError };
  return jsonAnswer(
    isResult ? CONFIRM_HTTP_STATUS.result : CONFIRM_HTTP_STATUS[outcome as ConfirmError],
    body,
    outcome === 'method_not_allowed' ? 'GET, HEAD, POST' : undefined,
  );
}

/** What each of its own outcomes counts besides Requests; error words count http-handler.ts's. */
const OUTCOME_METRIC: Record<Exclude<Outcome | 'page', ApiError>, MetricName | undefined> = {
  page: undefined,
  confirmed: METRIC.confirmed,
  'already-confirmed': METRIC.alreadyConfirmed,
  expired: METRIC.linkRefused,
  invalid: METRIC.linkRefused,
  unknown: METRIC.linkRefused,
};

interface Decision {
  outcome: Outcome;
  form?: RequestForm;
  language: Locale;
  /** For `forbidden`: which check refused it. */
  refusal?: GuardRefusal;
  fault?: FaultAnswer['fault'];
}

async function decide(event: APIGatewayProxyEventV2): Promise<Decision> {
  const body = readRequestBody(event);
  if (!body.ok) return { outcome: body.error, form: body.form, language: DEFAULT_LOCALE };
  const shape = confirmRequestSchema.safeParse(body.fields);
  const language = shape.success ? (shape.data.language ?? DEFAULT_LOCALE) : DEFAULT_LOCALE;
  if (!shape.success) return { outcome: 'invalid_request', form: body.form, language };
  const token = shape.data[TOKEN_FIELD];
  const confirmed = await outcomeOrFault(() =>
    withinDeadline((abortSignal) => confirmSignup(store, token, { abortSignal })),
  );
  return { form: body.form, language, ...confirmed };
}

/** A request the guard refused: around the edge (before the body is read), or posted by another site. */
function refused(event: APIGatewayProxyEventV2, refusal: GuardRefusal): Decision {
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal, language: DEFAULT_LOCALE };
  const { form, language } = howAsked(event);
  return { outcome: 'forbidden', refusal, form, language: language ?? DEFAULT_LOCALE };
}

/** One line per request, with its metrics. Never the token, never an address. */
export const handler = httpHandler<Outcome | 'page'>({
  service: 'confirm',
  outcomeMetric: OUTCOME_METRIC,
  async answer(event) {
    const refusal = refusalOf(event, guard);
    const method = event.requestContext.http.method;
    if (refusal === undefined && (method === 'GET' || method === 'HEAD'))
      return { outcome: 'page', response: showPage(event) };
    const decision = refusal === undefined ? await decide(event) : refused(event, refusal);
    const { outcome, form, fault } = decision;
    return {
      outcome,
      response: respond(outcome, form, decision.language),
      fault,
      logged: { form, refusal: decision.refusal },
    };
  },
});
