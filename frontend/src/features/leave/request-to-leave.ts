import { LEAVE_PATH, LEAVE_TOKEN_FIELD } from '#contract/leave';
import { JSON_CONTENT_TYPE } from '#contract/waitlist-api';

/** How long a visitor waits for an answer before being told to try again. */
export const LEAVE_TIMEOUT_MS = 10_000;

/** What pressing "leave" led to: done (whoever the link belonged to), or a fault to try again after. */
export type LeaveOutcome = 'done' | 'try-again';

/** Presses the leave button: asks the API to remove the person `token` belongs to. */
export async function requestToLeave(token: string): Promise<LeaveOutcome> {
  try {
    const response = await fetch(LEAVE_PATH, {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify({ [LEAVE_TOKEN_FIELD]: token }),
      signal: AbortSignal.timeout(LEAVE_TIMEOUT_MS),
    });
    if (response.status !== 200) return 'try-again';
    const answer: unknown = await response.json();
    return typeof answer === 'object' && answer !== null && 'result' in answer && answer.result === 'done'
      ? 'done'
      : 'try-again';
  } catch {
    return 'try-again';
  }
}
