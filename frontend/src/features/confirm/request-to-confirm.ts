import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_PATH,
  CONFIRM_RESULTS,
  type ConfirmRequest,
  type ConfirmResult,
  type ConfirmResultPage,
} from '#contract/confirmation';
import { JSON_CONTENT_TYPE } from '#contract/waitlist-api';

/** How long a visitor waits for an answer before being told to try again. */
export const CONFIRM_TIMEOUT_MS = 10_000;

const isConfirmResult = (value: unknown): value is ConfirmResult =>
  (CONFIRM_RESULTS as readonly unknown[]).includes(value);

/**
 * Presses the confirmation button: asks the API to confirm the signup `token` belongs to, and says what
 * to show, as the API's form post would (#contract/confirmation's result pages). A request the API refuses
 * as such (400, 413) is what a broken link sends: `invalid`. Anything else that is not a result (a server
 * fault, a rate limit, no network, no answer in time) is `try-again`: pressing again may work.
 */
export async function requestToConfirm(token: string): Promise<ConfirmResultPage> {
  try {
    const response = await fetch(CONFIRM_PATH, {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify({ token } satisfies ConfirmRequest),
      signal: AbortSignal.timeout(CONFIRM_TIMEOUT_MS),
    });
    if (
      response.status === CONFIRM_HTTP_STATUS.invalid_request ||
      response.status === CONFIRM_HTTP_STATUS.payload_too_large
    )
      return 'invalid';
    if (response.status !== CONFIRM_HTTP_STATUS.result) return 'try-again';
    const answer: unknown = await response.json();
    const result = typeof answer === 'object' && answer !== null && 'result' in answer ? answer.result : null;
    return isConfirmResult(result) ? result : 'try-again';
  } catch {
    return 'try-again';
  }
}
