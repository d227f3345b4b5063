import { LEAVE_PATH, LEAVE_TOKEN_FIELD } from '#contract/leave';
import { postJson } from '@/components/post-json';

/** What pressing "leave" led to: done (whoever the link belonged to), or a fault to try again after. */
export type LeaveOutcome = 'done' | 'try-again';

/** Presses the leave button: asks the API to remove the person `token` belongs to. */
export async function requestToLeave(token: string): Promise<LeaveOutcome> {
  const response = await postJson(LEAVE_PATH, { [LEAVE_TOKEN_FIELD]: token });
  return response?.status === 200 && response.answer?.result === 'done' ? 'done' : 'try-again';
}
