import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_PATH,
  CONFIRM_RESULTS,
  type ConfirmRequest,
  type ConfirmResult,
  type ConfirmResultPage,
} from '#contract/confirmation';
import { postJson } from '@/components/post-json';

const isConfirmResult = (value: unknown): value is ConfirmResult =>
  (CONFIRM_RESULTS as readonly unknown[]).includes(value);

/**
 * Presses the confirmation button: asks the API to confirm the signup `token` belongs to, and says what
 * to show, as the API's form post would (#contract/confirmation's result pages). A request the API refuses
 * as such (400, 413) is what a broken link sends: `invalid`. Anything else that is not a result (a server
 * fault, a rate limit, no network, no answer in time) is `try-again`: pressing again may work.
 */
export async function requestToConfirm(token: string): Promise<ConfirmResultPage> {
  const response = await postJson(CONFIRM_PATH, { token } satisfies ConfirmRequest);
  if (
    response?.status === CONFIRM_HTTP_STATUS.invalid_request ||
    response?.status === CONFIRM_HTTP_STATUS.payload_too_large
  )
    return 'invalid';
  const result = response?.status === CONFIRM_HTTP_STATUS.result ? response.answer?.result : null;
  return isConfirmResult(result) ? result : 'try-again';
}
