import { LEAVE_REQUEST_PATH } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { JSON_CONTENT_TYPE } from '#contract/waitlist-api';

/** How long a visitor waits for an answer before being told to try again. */
export const LEAVE_REQUEST_TIMEOUT_MS = 10_000;

/** Asked (the one answer for every valid address), refused as not an address, or anything else. */
export type LeaveLinkOutcome = 'requested' | 'invalid' | 'failed';

/** Asks the API to mail a leave link to `email`, if it is on the list. */
export async function requestLeaveLink(email: string, language: Locale): Promise<LeaveLinkOutcome> {
  try {
    const response = await fetch(LEAVE_REQUEST_PATH, {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify({ email, language }),
      signal: AbortSignal.timeout(LEAVE_REQUEST_TIMEOUT_MS),
    });
    if (response.status === 202) return 'requested';
    if (response.status === 400) return 'invalid';
    return 'failed';
  } catch {
    return 'failed';
  }
}
