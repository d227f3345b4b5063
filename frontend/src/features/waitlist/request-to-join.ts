import { referrerHost, type SignupSource, utmSourceOf } from '#contract/signup-source';
import { type JoinWaitlistRequest, WAITLIST_PATH } from '#contract/waitlist-api';
import { postJson } from '@/components/post-json';

export type JoinResult = 'joined' | 'already_registered' | 'failed';

export async function requestToJoin(request: JoinWaitlistRequest): Promise<JoinResult> {
  const response = await postJson(WAITLIST_PATH, { ...request, ...sourceOfThisVisit() });
  if (response?.status === 201) return 'joined';
  if (response?.status === 409) return 'already_registered';
  return 'failed';
}

/** The landing URL's UTM values, and the referring site unless it is this one. */
function sourceOfThisVisit(): SignupSource {
  if (typeof document === 'undefined') return {}; // a test calling from Node: no visit
  const referrer = referrerHost(document.referrer);
  return {
    ...utmSourceOf(location.search),
    ...(referrer !== undefined && referrer !== referrerHost(location.href) ? { referrer } : {}),
  };
}
