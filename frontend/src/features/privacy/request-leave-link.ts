import { LEAVE_REQUEST_PATH } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { postJson } from '@/components/post-json';

/** `requested` is the one answer for every valid address. */
export type LeaveLinkOutcome = 'requested' | 'invalid' | 'failed';

export async function requestLeaveLink(email: string, language: Locale): Promise<LeaveLinkOutcome> {
  const response = await postJson(LEAVE_REQUEST_PATH, { email, language });
  if (response?.status === 202) return 'requested';
  if (response?.status === 400) return 'invalid';
  return 'failed';
}
