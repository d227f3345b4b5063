import { LEAVE_PATH, LEAVE_TOKEN_FIELD } from '#contract/leave';
import { postJson } from '@/components/post-json';

export type LeaveOutcome = 'done' | 'try-again';

export async function requestToLeave(token: string): Promise<LeaveOutcome> {
  const response = await postJson(LEAVE_PATH, { [LEAVE_TOKEN_FIELD]: token });
  return response?.status === 200 && response.answer?.result === 'done' ? 'done' : 'try-again';
}
