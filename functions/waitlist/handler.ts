import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DEFAULT_LOCALE } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { sourceLabel } from '#contract/signup-source';
import { VISIT_PATH } from '#contract/visit-counting';
import {
  type JoinWaitlistError,
  type JoinWaitlistResponse,
  WAITLIST_HTTP_STATUS,
  WAITLIST_RESULT_OF,
  WAITLIST_RESULT_PATH,
} from '#contract/waitlist-api';
import { crossSitePage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked } from '../http/request-body';
import { refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { visitRoute } from '../visit/count-visit';
import { joinWaitlist, parseJoinRequest } from './join-waitlist';

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const countVisits = visitRoute(store, requiredEnv('VISITOR_TABLE_NAME'), guard);

type Outcome = 'joined' | 'ignored_honeypot' | JoinWaitlistError;

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  const refusal = refusalOf(event, guard);
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  if (refusal) return { outcome: 'forbidden', refusal, ...howAsked(event) };
  const parsed = parseJoinRequest(event, guard.siteHosts);
  if ('outcome' in parsed) return parsed;
  const { form, request } = parsed;
  const asked = { form, language: request.language, source: sourceLabel(request.source ?? {}) };
  // A person never reaches the hidden field, so anything in it, even a space, was put there by a robot.
  if (request.website) return { outcome: 'ignored_honeypot', ...asked };
  const joined = await outcomeOrFault((abortSignal) => joinWaitlist(store, request, { abortSignal }));
  return { ...asked, ...joined };
}

const join = httpHandler<Outcome>(
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

export const handler = (event: APIGatewayProxyEventV2) =>
  event.rawPath === VISIT_PATH ? countVisits(event) : join(event);
