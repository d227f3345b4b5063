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

/** A request refused as such (400, 413) comes from a broken link; any other non-result may pass on a retry. */
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
