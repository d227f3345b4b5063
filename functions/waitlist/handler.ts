import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isSmokeAddress } from '#contract/email-address';
import { API_ERROR_STATUS } from '#contract/http-status';
import { DEFAULT_LOCALE, isLocale } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { sourceLabel } from '#contract/signup-source';
import { isRobotUserAgent, VISIT_LANGUAGE_PARAMETER } from '#contract/visit-counting';
import {
  type JoinWaitlistError,
  type JoinWaitlistResponse,
  WAITLIST_HTTP_STATUS,
  WAITLIST_RESULT_OF,
  WAITLIST_RESULT_PATH,
} from '#contract/waitlist-api';
import { crossSitePage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { refusalOf, requestGuardSettingsFrom } from '../http/origin-guard';
import { storeFromEnvironment } from '../store/store-client';
import { requiredEnv } from '../strict-input';
import { countVisit } from '../visit/count-visit';
import { joinWaitlist, parseJoinRequest } from './join-waitlist';

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const visitorTable = requiredEnv('VISITOR_TABLE_NAME');

type Outcome = 'joined' | 'ignored_honeypot' | JoinWaitlistError;

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  const parsed = parseJoinRequest(event, guard);
  if ('outcome' in parsed) return parsed;
  const { form, request } = parsed;
  const asked = { form, language: request.language, source: sourceLabel(request.source ?? {}) };
  // A person never reaches the hidden field, so anything in it, even a space, was put there by a robot.
  if (request.website) return { outcome: 'ignored_honeypot', ...asked };
  const joined = await outcomeOrFault((abortSignal) => joinWaitlist(store, request, { abortSignal }));
  return { ...asked, ...joined, uncounted: isSmokeAddress(request.key) };
}

export const handler = httpHandler<Outcome>(
  'waitlist',
  { joined: METRIC.joined, ignored_honeypot: METRIC.honeypot },
  decide,
  ({ outcome, form, language = DEFAULT_LOCALE }) => {
    // A robot caught by the honeypot is told exactly what a person would be.
    const answered = outcome === 'ignored_honeypot' ? 'joined' : outcome;
    if (form === 'form' && answered === 'forbidden') return crossSitePage('signup', language);
    const result = WAITLIST_RESULT_OF[answered as keyof typeof WAITLIST_RESULT_OF];
    if (form === 'form' && result) return seeOther(WAITLIST_RESULT_PATH[result][language]);
    const body: JoinWaitlistResponse = answered === 'joined' ? { status: 'joined' } : { error: answered };
    return jsonAnswer(WAITLIST_HTTP_STATUS[answered], body, 'POST');
  },
);

type VisitError = 'invalid_request' | 'method_not_allowed' | 'forbidden' | 'unavailable' | 'internal';
type VisitOutcome = 'counted' | 'seen' | 'robot' | 'no_address' | VisitError;

async function decideVisit(event: APIGatewayProxyEventV2): Promise<Decision<VisitOutcome>> {
  const refusal = refusalOf(event, guard);
  if (refusal) return { outcome: 'forbidden', refusal };
  if (event.requestContext.http.method !== 'POST') return { outcome: 'method_not_allowed' };
  const language = new URLSearchParams(event.rawQueryString).get(VISIT_LANGUAGE_PARAMETER);
  if (!isLocale(language)) return { outcome: 'invalid_request' };
  const userAgent = event.headers?.['user-agent'] ?? '';
  if (isRobotUserAgent(userAgent)) return { outcome: 'robot', language };
  // Through CloudFront its Viewer-Address (`address:port`): API Gateway's source is CloudFront's, and
  // X-Forwarded-For begins with whatever the client wrote. Locally, the socket's address.
  const viewer = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
  const clientAddress =
    guard.originVerifySecret === undefined
      ? event.requestContext.http.sourceIp
      : viewer.slice(0, Math.max(viewer.lastIndexOf(':'), 0));
  if (!clientAddress) return { outcome: 'no_address', language };
  const visit = { clientAddress, userAgent, site: event.requestContext.domainName, language };
  const counted = await outcomeOrFault((abortSignal) =>
    countVisit(store, visitorTable, visit, { abortSignal }),
  );
  return { language, ...counted };
}

/** The home page's beacon, no body, answered 204. Logs never the address or user agent. */
export const countVisits = httpHandler<VisitOutcome>(
  'visit',
  { counted: METRIC.visits, seen: undefined, robot: undefined, no_address: undefined },
  decideVisit,
  ({ outcome }) =>
    outcome === 'counted' || outcome === 'seen' || outcome === 'robot' || outcome === 'no_address'
      ? { statusCode: 204, headers: { 'cache-control': 'no-store' } }
      : jsonAnswer(API_ERROR_STATUS[outcome], { error: outcome }, 'POST'),
);
