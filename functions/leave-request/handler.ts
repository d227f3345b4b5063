import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { API_ERROR_STATUS, type ApiError, type BodyRefusal } from '#contract/http-status';
import { LEAVE_RESULT_PATH } from '#contract/leave';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage } from '../http/cross-site-page';
import { httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked, type RequestForm, readRequestBody } from '../http/request-body';
import { type GuardRefusal, refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { storeFromEnvironment, withinDeadline } from '../store/store-client';
import type { FaultAnswer } from '../telemetry/fault-class';
import { requestLeaveMail } from './request-leave-mail';

/**
 * `/api/leave-request`: the privacy page's form for a person without a mail at hand (#contract/leave).
 * A valid address gets the same answer whether or not it is on the list: "if it is, a mail with a link to
 * leave is on its way". JSON for the page's script, 303 to a result page for a plain form post. Its time
 * tells no more than its words: the store does the same work for every address (requestLeaveMail), and the
 * answer waits until ANSWER_AFTER_MS have passed, so what that work costs the store for one item or
 * another (its size, its indexes) does not show either.
 */

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);

/** A valid address is answered no sooner than this after its store work began: well above that work's time. */
export const ANSWER_AFTER_MS = 250;

/** What `work` came to, once `ms` have passed since it began. */
async function notBefore<T>(ms: number, work: Promise<T>): Promise<T> {
  const [result] = await Promise.all([work, new Promise((resolve) => setTimeout(resolve, ms))]);
  return result;
}

const leaveRequestSchema = z.object({
  email: z.string().check(z.maxLength(MAX_REQUEST_BYTES)),
  language: z.optional(z.enum(LOCALES)),
});

type LeaveRequestError = 'invalid_email' | BodyRefusal | 'forbidden' | 'unavailable' | 'internal';
/** `requested` is every valid address's answer; `not-requested` is only logged, never told. */
type Outcome = 'requested' | 'not-requested' | LeaveRequestError;

interface Decision {
  outcome: Outcome;
  form?: RequestForm;
  language: Locale;
  refusal?: GuardRefusal;
  fault?: FaultAnswer['fault'];
}

const isAnswered = (outcome: Outcome) => outcome === 'requested' || outcome === 'not-requested';

function respond({ outcome, form, language }: Decision): APIGatewayProxyStructuredResultV2 {
  // A visitor whose form another site made gets a page that says so.
  if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
  if (form === 'form') {
    // The form checks the address before it is sent (type email, required): what gets here refused is
    // rare, and the result page says to go back and check it.
    return seeOther(LEAVE_RESULT_PATH[isAnswered(outcome) ? 'requested' : 'try-again'][language]);
  }
  return jsonAnswer(
    isAnswered(outcome) ? 202 : API_ERROR_STATUS[outcome as LeaveRequestError],
    isAnswered(outcome) ? { status: 'requested' } : { error: outcome },
    outcome === 'method_not_allowed' ? 'POST' : undefined,
  );
}

/** What each of its own outcomes counts besides Requests; error words count http-handler.ts's. */
const OUTCOME_METRIC: Record<Exclude<Outcome, ApiError>, MetricName | undefined> = {
  requested: METRIC.leaveLinkRequested,
  'not-requested': METRIC.leaveLinkRequested,
};

const languageOf = (fields: unknown): Locale => {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : DEFAULT_LOCALE;
};

async function decide(event: APIGatewayProxyEventV2): Promise<Decision> {
  const refusal = refusalOf(event, guard);
  // Around the edge: refused before the body is even read.
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal, language: DEFAULT_LOCALE };
  if (refusal === 'cross_site') {
    const { form, language } = howAsked(event);
    return { outcome: 'forbidden', refusal, form, language: language ?? DEFAULT_LOCALE };
  }
  const body = readRequestBody(event);
  if (!body.ok) return { outcome: body.error, form: body.form, language: DEFAULT_LOCALE };
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = leaveRequestSchema.safeParse(fields);
  if (!shape.success) return { outcome: 'invalid_request', form, language };
  const email = checkEmail(shape.data.email);
  if (!email.ok) return { outcome: 'invalid_email', form, language };
  const requested = await notBefore(
    ANSWER_AFTER_MS,
    outcomeOrFault(() =>
      withinDeadline((abortSignal) =>
        requestLeaveMail(store, email.key, { requestId: randomUUID(), abortSignal }),
      ),
    ),
  );
  return { form, language, ...requested };
}

/** One line per request, with its metrics. Never the address. */
export const handler = httpHandler<Outcome>({
  service: 'leave-request',
  outcomeMetric: OUTCOME_METRIC,
  async answer(event) {
    const decision = await decide(event);
    const { outcome, form, refusal, fault } = decision;
    return { outcome, response: respond(decision), fault, logged: { form, refusal } };
  },
});
