import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { API_ERROR_STATUS, type ApiError } from '#contract/http-status';
import { LEAVE_RESULT_PATH } from '#contract/leave';
import { DEFAULT_LOCALE, LOCALES } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { crossSitePage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { requestGuardSettingsFrom } from '../http/origin-guard';
import { guardedAddressBody } from '../http/post-body';
import { storeFromEnvironment } from '../store/store-client';
import { requestLeaveMail } from './ask-leave-link';

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);

// A valid address gets the same answer, on or off the list, and no sooner than this (well above the store
// work's time), so its timing tells nothing either.
export const ANSWER_AFTER_MS = 250;

const leaveRequestSchema = z.object({ email: z.string(), language: z.optional(z.enum(LOCALES)) });

/** `not-requested` is only logged, never told. */
type Outcome = 'requested' | 'not-requested' | Exclude<ApiError, 'already_registered' | 'rate_limited'>;

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  const body = guardedAddressBody(event, guard, leaveRequestSchema);
  if ('outcome' in body) return body;
  const { form, language, address } = body;
  const [requested] = await Promise.all([
    outcomeOrFault((abortSignal) =>
      requestLeaveMail(store, address.key, { requestId: randomUUID(), abortSignal }),
    ),
    new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS)),
  ]);
  return { form, language, ...requested };
}

export const handler = httpHandler<Outcome>(
  'leave-request',
  { requested: METRIC.leaveLinkRequested, 'not-requested': METRIC.leaveLinkRequested },
  decide,
  ({ outcome, form, language = DEFAULT_LOCALE }) => {
    const answered = outcome === 'requested' || outcome === 'not-requested';
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
    // The form checks the address itself: the try-again page says to go back and check it.
    if (form === 'form') return seeOther(LEAVE_RESULT_PATH[answered ? 'requested' : 'try-again'][language]);
    return answered
      ? jsonAnswer(202, { status: 'requested' })
      : jsonAnswer(API_ERROR_STATUS[outcome], { error: outcome }, 'POST');
  },
);
