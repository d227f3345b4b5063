import { referrerHost, type SignupSource, utmSourceOf } from '#contract/signup-source';
import { type JoinWaitlistRequest, WAITLIST_PATH } from '#contract/waitlist-api';
import { postJson } from '@/components/post-json';

export type JoinResult = 'joined' | 'already_registered' | 'failed';

/**
 * Where this visit came from, read when the form is sent: the landing URL's UTM values, and the site that
 * linked here, unless that is this site itself (a visitor who came by the privacy notice came from us).
 */
export function sourceOfThisVisit(): SignupSource {
  // Outside a page (a test calling this from Node) there is no visit to speak of.
  if (typeof document === 'undefined') return {};
  const referrer = referrerHost(document.referrer);
  return {
    ...utmSourceOf(location.search),
    ...(referrer !== undefined && referrer !== referrerHost(location.href) ? { referrer } : {}),
  };
}

/**
 * Asks the waitlist API to add an address. Only three things matter to the page: joined, already on the
 * list, or anything else (bad request, rate limit, server fault, no network, no answer in time).
 */
export async function requestToJoin(request: JoinWaitlistRequest): Promise<JoinResult> {
  const response = await postJson(WAITLIST_PATH, { ...request, ...sourceOfThisVisit() });
  if (response?.status === 201) return 'joined';
  if (response?.status === 409) return 'already_registered';
  return 'failed';
}
