import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { API_ERROR_STATUS, type ApiError, type BodyRefusal } from '#contract/http-status';
import { LEAVE_RESULT_PATH } from '#contract/leave';
import { DEFAULT_LOCALE, LOCALES } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage } from '../http/cross-site-page';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked, languageOf, readRequestBody } from '../http/request-body';
import { refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { storeFromEnvironment } from '../store/store-client';
import { requestLeaveMail } from './request-leave-mail';

// A valid address gets the same answer, on or off the list, and no sooner than ANSWER_AFTER_MS (well above
// the store work's time), so its timing tells nothing either.

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);

export const ANSWER_AFTER_MS = 250;

async function notBefore<T>(ms: number, work: Promise<T>): Promise<T> {
  const [result] = await Promise.all([work, new Promise((resolve) => setTimeout(resolve, ms))]);
  return result;
}

const leaveRequestSchema = z.object({
  email: z.string().check(z.maxLength(MAX_REQUEST_BYTES)),
  language: z.optional(z.enum(LOCALES)),
});

type LeaveRequestError = 'invalid_email' | BodyRefusal | 'forbidden' | 'unavailable' | 'internal';
/** `not-requested` is only logged, never told. */
type Outcome = 'requested' | 'not-requested' | LeaveRequestError;

const isAnswered = (outcome: Outcome) => outcome === 'requested' || outcome === 'not-requested';

function respond({
  outcome,
  form,
  language = DEFAULT_LOCALE,
}: Decision<Outcome>): APIGatewayProxyStructuredResultV2 {
  if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
  if (form === 'form') {
    // The form checks the address itself: the try-again page says to go back and check it.
    return seeOther(LEAVE_RESULT_PATH[isAnswered(outcome) ? 'requested' : 'try-again'][language]);
  }
  return jsonAnswer(
    isAnswered(outcome) ? 202 : API_ERROR_STATUS[outcome as LeaveRequestError],
    isAnswered(outcome) ? { status: 'requested' } : { error: outcome },
    outcome === 'method_not_allowed' ? 'POST' : undefined,
  );
}

const OUTCOME_METRIC: Record<Exclude<Outcome, ApiError>, MetricName | undefined> = {
  requested: METRIC.leaveLinkRequested,
  'not-requested': METRIC.leaveLinkRequested,
};

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  const refusal = refusalOf(event, guard);
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  if (refusal) return { outcome: 'forbidden', refusal, ...howAsked(event) };
  const body = readRequestBody(event);
  if (!body.ok) return { outcome: body.error, form: body.form };
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = leaveRequestSchema.safeParse(fields);
  if (!shape.success) return { outcome: 'invalid_request', form, language };
  const email = checkEmail(shape.data.email);
  if (!email.ok) return { outcome: 'invalid_email', form, language };
  const requested = await notBefore(
    ANSWER_AFTER_MS,
    outcomeOrFault((abortSignal) =>
      requestLeaveMail(store, email.key, { requestId: randomUUID(), abortSignal }),
    ),
  );
  return { form, language, ...requested };
}

export const handler = httpHandler<Outcome>({
  service: 'leave-request',
  outcomeMetric: OUTCOME_METRIC,
  async answer(event) {
    const decision = await decide(event);
    const { outcome, form, refusal, fault } = decision;
    return { outcome, response: respond(decision), fault, logged: { form, refusal } };
  },
});
