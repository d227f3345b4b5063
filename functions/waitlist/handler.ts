import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiError } from '#contract/http-status';
import { DEFAULT_LOCALE, type Locale } from '#contract/locales';
import { METRIC, type MetricName } from '#contract/metrics';
import { sourceLabel } from '#contract/signup-source';
import { VISIT_PATH } from '#contract/visit-counting';
import {
  type JoinWaitlistError,
  type JoinWaitlistResponse,
  WAITLIST_HTTP_STATUS,
  WAITLIST_RESULT_OF,
  WAITLIST_RESULT_PATH,
} from '#contract/waitlist-api';
import { crossSitePage } from '../http/cross-site-page';
import { httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { howAsked } from '../http/request-body';
import { type GuardRefusal, refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { requiredEnv, STORE_DEADLINE_MS, storeFromEnvironment, withinDeadline } from '../store/store-client';
import type { FaultAnswer } from '../telemetry/fault-class';
import { visitRoute } from '../visit/visit-route';
import { parseJoinRequest, type RequestForm } from './join-request';
import { joinWaitlist, type WaitlistStore } from './join-waitlist';

// Created once per container and reused by every request it serves.
const store: WaitlistStore = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
/** The home pages' visit beacon: counted in the waitlist table, with the day's visitors in a table of their own. */
const countVisits = visitRoute(
  { counts: store, visitors: { client: store.client, tableName: requiredEnv('VISITOR_TABLE_NAME') } },
  guard,
);

export { STORE_DEADLINE_MS };

type Outcome = 'joined' | 'ignored_honeypot' | JoinWaitlistError;

interface Decision {
  outcome: Outcome;
  /** How the request came: a form post is answered with a redirect to a page in its language. */
  form?: RequestForm;
  language?: Locale;
  /** For `forbidden`: which check refused it. */
  refusal?: GuardRefusal;
  /** For a fault: its class and the error's name (never its message, which may quote the request). */
  fault?: FaultAnswer['fault'];
  /** Where a readable request came from, as one coarse label (sourceLabel): never a URL. */
  source?: string;
}

function respond({ outcome, form, language }: Decision): APIGatewayProxyStructuredResultV2 {
  // A robot caught by the honeypot is told exactly what a person would be.
  const answered = outcome === 'ignored_honeypot' ? 'joined' : outcome;
  // A visitor whose form another site made gets a page that says so, not someone else's result page.
  if (form === 'form' && answered === 'forbidden') return crossSitePage('signup', language ?? DEFAULT_LOCALE);
  if (form === 'form' && answered in WAITLIST_RESULT_OF) {
    const result = WAITLIST_RESULT_OF[answered as keyof typeof WAITLIST_RESULT_OF];
    // A path on the page's own domain: CloudFront serves the API and the pages alike.
    return seeOther(WAITLIST_RESULT_PATH[result][language ?? DEFAULT_LOCALE]);
  }
  const body: JoinWaitlistResponse = answered === 'joined' ? { status: 'joined' } : { error: answered };
  return jsonAnswer(
    WAITLIST_HTTP_STATUS[answered],
    body,
    outcome === 'method_not_allowed' ? 'POST' : undefined,
  );
}

/** What each of its own outcomes counts besides Requests; error words count http-handler.ts's. */
const OUTCOME_METRIC: Record<Exclude<Outcome, ApiError>, MetricName> = {
  joined: METRIC.joined,
  ignored_honeypot: METRIC.honeypot,
};

async function decide(event: APIGatewayProxyEventV2): Promise<Decision> {
  const refusal = refusalOf(event, guard);
  // Around the edge: refused before the body is even read.
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  if (refusal === 'cross_site') return { outcome: 'forbidden', refusal, ...howAsked(event) };
  const parsed = parseJoinRequest(event, guard.siteHosts);
  if (!parsed.ok) return { outcome: parsed.error, form: parsed.form, language: parsed.language };
  const { form, request } = parsed;
  const asked = { form, language: request.language, source: sourceLabel(request.source ?? {}) };
  // A robot filled the hidden field: tell it what it hopes to hear, keep nothing. Anything in it counts,
  // whitespace too: a person never reaches the field (off screen, aria-hidden, out of the Tab order,
  // autocomplete off), so it arrives empty or not at all, and even a space in it was put there by
  // something that fills every field it finds. Pinned in test/unit/functions/handler-abuse.test.ts.
  if (request.website) return { outcome: 'ignored_honeypot', ...asked };
  const joined = await outcomeOrFault(() =>
    withinDeadline((abortSignal) => joinWaitlist(store, request, { abortSignal })),
  );
  return { ...asked, ...joined };
}

/**
 * One line per request, with its metrics (see functions/telemetry/metrics.ts). Never the address, never
 * the request body.
 */
const join = httpHandler<Outcome>({
  service: 'waitlist',
  outcomeMetric: OUTCOME_METRIC,
  async answer(event) {
    const decision = await decide(event);
    const { outcome, form, language, refusal, fault, source } = decision;
    return { outcome, response: respond(decision), fault, language, logged: { form, refusal, source } };
  },
});

/** The function's two routes: joining the waitlist, and the visit beacon (functions/visit), by path. */
export const handler = (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> =>
  event.rawPath === VISIT_PATH ? countVisits(event) : join(event);
