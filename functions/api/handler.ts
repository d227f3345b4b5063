import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  APIGatewayProxyEventV2 as Event,
  APIGatewayProxyStructuredResultV2 as Result,
} from 'aws-lambda';
import * as z from 'zod/mini';
import { API_ROUTES, type ApiRoute, isApiRoute } from '#contract/api-routes';
import * as confirmation from '#contract/confirmation';
import { isSmokeAddress } from '#contract/email-address';
import { API_ERROR_STATUS, type ApiError, type BodyRefusal } from '#contract/http-status';
import * as leave from '#contract/leave';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '#contract/locales';
import { METRIC, type MetricName, type Service } from '#contract/metrics';
import * as signupSource from '#contract/signup-source';
import { noticePage } from '#contract/too-many-requests';
import { isRobotUserAgent, VISIT_LANGUAGE_PARAMETER, VISIT_PATH } from '#contract/visit-counting';
import * as waitlist from '#contract/waitlist-api';
import { confirmSignup } from '../confirm/confirm-signup';
import * as post from '../http/post-body';
import { leavePerson } from '../leave/leave-person';
import { requestLeaveMail } from '../leave-link/ask-leave-link';
import { STORE_DEADLINE_MS, storeFromEnvironment } from '../store/store-client';
import { requiredEnv } from '../strict-input';
import { errorNameOf, faultClassOf, isTransient } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';
import { countVisit } from '../visit/count-visit';
import { joinWaitlist } from '../waitlist/join-waitlist';

// Every route of the HTTP API, each answering and logging as its own service. Answers never tell whether an
// address or a token belongs to anyone.
const store = storeFromEnvironment();
const guard = post.requestGuardSettingsFrom(process.env);
const visitorTable = requiredEnv('VISITOR_TABLE_NAME');
const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

// Every other error is a request refused as invalid.
const ERROR_METRIC: Partial<Record<ApiError, MetricName>> = {
  already_registered: METRIC.alreadyRegistered,
  forbidden: METRIC.forbidden,
  unavailable: METRIC.unavailable,
  internal: METRIC.internal,
};

/** One log line per request, whatever the log level: it carries the metrics. */
function route<Outcome extends string>(
  service: Service,
  outcomeMetric: Record<Exclude<Outcome, ApiError>, MetricName | undefined>,
  decide: (event: Event) => Promise<post.Decision<Outcome>>,
  respond: (decision: post.Decision<Outcome>, event: Event) => Result,
) {
  return async (event: Event): Promise<Result> => {
    const started = performance.now();
    const decision = await decide(event);
    const { outcome, fault, form, refusal, source } = decision;
    const response = respond(decision, event);
    const metric = Object.hasOwn(API_ERROR_STATUS, outcome)
      ? (ERROR_METRIC[outcome as ApiError] ?? METRIC.invalid)
      : outcomeMetric[outcome as Exclude<Outcome, ApiError>];
    writeMetricLine({
      service,
      message: `${service} request`,
      level: !fault ? 'INFO' : isTransient(fault.faultClass) ? 'WARN' : 'ERROR',
      counts: { [METRIC.requests]: 1, ...(metric && !decision.uncounted ? { [metric]: 1 } : {}) },
      latencyMs: Math.round(performance.now() - started),
      language: decision.language,
      faultClass: fault?.faultClass,
      fields: { outcome, status: response.statusCode, form, refusal, source, errorName: fault?.errorName },
      requestId: event.requestContext.requestId,
    });
    return response;
  };
}

/** The store work's outcome within STORE_DEADLINE_MS, or its fault's answer: 503 when a retry may help. */
async function outcomeOrFault<Outcome>(work: (abortSignal: AbortSignal) => Promise<Outcome>) {
  const controller = new AbortController();
  const deadline = new Promise<never>((_, reject) => {
    controller.signal.onabort = () => reject(controller.signal.reason);
  });
  const error = new Error(`no answer from the store within ${STORE_DEADLINE_MS} ms`);
  error.name = 'StoreDeadlineExceeded';
  const timer = setTimeout(() => controller.abort(error), STORE_DEADLINE_MS);
  try {
    return { outcome: await Promise.race([work(controller.signal), deadline]) };
  } catch (error) {
    const faultClass = faultClassOf(error);
    const fault = { faultClass, errorName: errorNameOf(error) };
    return { outcome: isTransient(faultClass) ? ('unavailable' as const) : ('internal' as const), fault };
  } finally {
    clearTimeout(timer);
  }
}

const jsonAnswer = (statusCode: number, body: unknown) => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

const seeOther = (location: string) => ({
  statusCode: 303,
  headers: { location, 'cache-control': 'no-store' },
  body: '',
});

const localeOf = (value: string | null) => (isLocale(value) ? value : undefined);

/** A GET or HEAD opening a mail's link, answered with its page: only a POST can be refused as cross-site. */
const opensPage = (event: Event) =>
  ['GET', 'HEAD'].includes(event.requestContext.http.method) && !post.refusalOf(event, guard);

/** The prerendered page a mail's link opens, its token in the form (a non-token left out); HEAD gets no body. */
function tokenPage(dir = import.meta.dirname, fileOf: (language: Locale) => string, placeholder: string) {
  const pages = new Map<Locale, string>();
  return (event: Event): Result => {
    const query = new URLSearchParams(event.rawQueryString);
    const language = localeOf(query.get(confirmation.LANGUAGE_PARAMETER)) ?? DEFAULT_LOCALE;
    const token = query.get(confirmation.TOKEN_PARAMETER) ?? '';
    const page = pages.get(language) ?? readFileSync(join(dir, fileOf(language)), 'utf8');
    pages.set(language, page);
    const body = page.replace(placeholder, () => (/^[A-Za-z0-9_-]{1,64}$/.test(token) ? token : ''));
    return { statusCode: 200, headers: html, body: event.requestContext.http.method === 'HEAD' ? '' : body };
  };
}

const CROSS_SITE = {
  nl: {
    signup: [
      'Aanmelding niet verwerkt',
      'Je aanmelding is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets bewaard en er is geen mail verstuurd. Meld je aan via het formulier op de site van Mandje zelf.',
    ],
    confirmation: [
      'Bevestiging niet verwerkt',
      'Je bevestiging is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets veranderd. Open de link in je bevestigingsmail en bevestig op de site van Mandje zelf.',
    ],
    leaving: [
      'Verzoek niet verwerkt',
      'Je verzoek is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets veranderd. Gebruik de link in een mail van Mandje, of het formulier in de privacyverklaring op de site van Mandje zelf.',
    ],
    link: ['/', 'Naar Mandje'],
  },
  en: {
    signup: [
      'Signup not taken',
      'Your signup was not taken, because the form came from another website. Nothing was kept and no mail was sent. Sign up with the form on Mandje’s own site.',
    ],
    confirmation: [
      'Confirmation not taken',
      'Your confirmation was not taken, because the form came from another website. Nothing was changed. Open the link in your confirmation mail and confirm on Mandje’s own site.',
    ],
    leaving: [
      'Request not taken',
      'Your request was not taken, because the form came from another website. Nothing was changed. Use the link in a mail from Mandje, or the form in the privacy notice on Mandje’s own site.',
    ],
    link: ['/en/', 'Go to Mandje'],
  },
};

function crossSitePage(about: 'signup' | 'confirmation' | 'leaving', language: Locale): Result {
  const {
    [about]: [title = '', text],
    link: [home, link],
  } = CROSS_SITE[language];
  const main = `<h1>${title}</h1>\n<p>${text}</p>\n<p><a href="${home}">${link}</a></p>`;
  return { statusCode: API_ERROR_STATUS.forbidden, headers: html, body: noticePage(language, title, main) };
}

// ---- POST /api/waitlist
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string()),
  // sourceValue keeps or drops these: an odd value never costs a signup.
  utmSource: z.optional(z.string()),
  utmMedium: z.optional(z.string()),
  utmCampaign: z.optional(z.string()),
  referrer: z.optional(z.string()),
}) satisfies z.ZodMiniType<waitlist.JoinWaitlistRequest & signupSource.SignupSource>;

type JoinOutcome = 'joined' | 'ignored_honeypot' | waitlist.JoinWaitlistError;

async function decideJoin(event: Event): Promise<post.Decision<JoinOutcome>> {
  const body = post.guardedAddressBody(event, guard, joinRequestSchema);
  if ('outcome' in body) return body;
  const { form, fields, address } = body;
  // A form posted without script says where its visitor came from only in its Referer, the page's own address
  // (strict-origin-when-cross-origin keeps it whole), read from the site's own hosts only; a script says itself.
  const referer = event.headers.referer ?? '';
  const fallback =
    form === 'form' && referer.length <= 2_048 && post.isOwnOrigin(event, referer, guard.siteHosts)
      ? signupSource.utmSourceOf(new URL(referer).search)
      : {};
  const source: signupSource.SignupSource = {};
  for (const field of signupSource.SOURCE_FIELDS) {
    const value = signupSource.sourceValue(fields[field]) ?? fallback[field];
    if (value !== undefined) source[field] = value;
  }
  const asked = { form, language: fields.language, source: signupSource.sourceLabel(source) };
  // A person never reaches the hidden field, so anything in it, even a space, was put there by a robot.
  if (fields.website) return { outcome: 'ignored_honeypot', ...asked };
  const entry = { ...address, language: fields.language, ...(Object.keys(source).length ? { source } : {}) };
  const joined = await outcomeOrFault((abortSignal) => joinWaitlist(store, entry, { abortSignal }));
  return { ...asked, ...joined, uncounted: isSmokeAddress(address.key) };
}

const joinRoute = route<JoinOutcome>(
  'waitlist',
  { joined: METRIC.joined, ignored_honeypot: METRIC.honeypot },
  decideJoin,
  ({ outcome, form, language = DEFAULT_LOCALE }) => {
    // A robot caught by the honeypot is told exactly what a person would be.
    const answered = outcome === 'ignored_honeypot' ? 'joined' : outcome;
    if (form === 'form' && answered === 'forbidden') return crossSitePage('signup', language);
    const result = waitlist.WAITLIST_RESULT_OF[answered as keyof typeof waitlist.WAITLIST_RESULT_OF];
    if (form === 'form' && result) return seeOther(waitlist.WAITLIST_RESULT_PATH[result][language]);
    const body = answered === 'joined' ? { status: 'joined' } : { error: answered };
    return jsonAnswer(waitlist.WAITLIST_HTTP_STATUS[answered], body);
  },
);

// ---- POST /api/visit: the home page's beacon, no body, answered 204; never logs the address or user agent.
type VisitError = 'invalid_request' | 'method_not_allowed' | 'forbidden' | 'unavailable' | 'internal';
type VisitOutcome = 'counted' | 'seen' | 'robot' | 'no_address' | VisitError;

async function decideVisit(event: Event): Promise<post.Decision<VisitOutcome>> {
  const refusal = post.refusalOf(event, guard);
  if (refusal) return { outcome: 'forbidden', refusal };
  if (event.requestContext.http.method !== 'POST') return { outcome: 'method_not_allowed' };
  const language = localeOf(new URLSearchParams(event.rawQueryString).get(VISIT_LANGUAGE_PARAMETER));
  if (!language) return { outcome: 'invalid_request' };
  const userAgent = event.headers['user-agent'] ?? '';
  if (isRobotUserAgent(userAgent)) return { outcome: 'robot', language };
  // Through CloudFront its Viewer-Address (`address:port`): API Gateway's source is CloudFront's, and
  // X-Forwarded-For begins with whatever the client wrote. Locally, the socket's address.
  const viewer = event.headers['cloudfront-viewer-address']?.trim() ?? '';
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

const visitRoute = route<VisitOutcome>(
  'visit',
  { counted: METRIC.visits, seen: undefined, robot: undefined, no_address: undefined },
  decideVisit,
  ({ outcome }) =>
    Object.hasOwn(API_ERROR_STATUS, outcome)
      ? jsonAnswer(API_ERROR_STATUS[outcome as VisitError], { error: outcome })
      : { statusCode: 204, headers: { 'cache-control': 'no-store' } },
);

// ---- /api/confirm: GET shows the page (mail scanners open links), only the POST confirms.
const showConfirmPage = tokenPage(
  process.env.CONFIRM_PAGES_DIR,
  confirmation.confirmPageFile,
  confirmation.TOKEN_PLACEHOLDER,
);
const confirmRequestSchema = z.object({ token: z.string(), language: z.optional(z.enum(LOCALES)) });

type ConfirmOutcome = confirmation.ConfirmResult | confirmation.ConfirmError | 'page';

async function decideConfirm(event: Event): Promise<post.Decision<ConfirmOutcome>> {
  if (opensPage(event)) return { outcome: 'page' };
  const body = post.guardedBody(event, guard);
  if ('outcome' in body) return body;
  const shape = confirmRequestSchema.safeParse(body.fields);
  if (!shape.success) return { outcome: 'invalid_request', form: body.form };
  const confirmed = await outcomeOrFault((abortSignal) =>
    confirmSignup(store, shape.data.token, { abortSignal }),
  );
  return { form: body.form, language: shape.data.language, ...confirmed };
}

const confirmRoute = route<ConfirmOutcome>(
  'confirm',
  {
    page: undefined,
    confirmed: METRIC.confirmed,
    'already-confirmed': METRIC.alreadyConfirmed,
    expired: METRIC.linkRefused,
    invalid: METRIC.linkRefused,
    unknown: METRIC.linkRefused,
  },
  decideConfirm,
  ({ outcome, form, language = DEFAULT_LOCALE }, event) => {
    if (outcome === 'page') return showConfirmPage(event);
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('confirmation', language);
    const isResult = !Object.hasOwn(API_ERROR_STATUS, outcome);
    const fault = outcome === 'unavailable' || outcome === 'internal';
    const page = isResult ? (outcome as confirmation.ConfirmResult) : fault ? 'try-again' : 'invalid';
    if (form === 'form' && (isResult || fault || outcome === 'invalid_request'))
      return seeOther(confirmation.CONFIRM_RESULT_PATH[page][language]);
    if (isResult) return jsonAnswer(confirmation.CONFIRM_HTTP_STATUS.result, { result: page });
    return jsonAnswer(confirmation.CONFIRM_HTTP_STATUS[outcome as confirmation.ConfirmError], {
      error: outcome,
    });
  },
);

// ---- /api/leave: GET shows the page and removes no one (link scanners open links); POST leaves: RFC 8058
// one-click gets plain text, the form 303, the script JSON.
const showLeavePage = tokenPage(
  process.env.LEAVE_PAGES_DIR,
  leave.leavePageFile,
  leave.LEAVE_TOKEN_PLACEHOLDER,
);
const leaveRequestSchema = z.object({ token: z.optional(z.string()), language: z.optional(z.enum(LOCALES)) });

type LeaveOutcome = 'left' | 'unknown' | BodyRefusal | 'forbidden' | 'unavailable' | 'internal' | 'page';

const ONE_CLICK_TEXT = {
  nl: {
    done: 'Je bent afgemeld voor de wachtlijst van Mandje. We mailen je niet meer.',
    fault: 'Dat lukte nu even niet. Probeer het later nog eens.',
    refused: 'Dit verzoek is niet verwerkt.',
  },
  en: {
    done: 'You’ve left the Mandje waitlist. We won’t email you again.',
    fault: 'That didn’t work just now. Please try again later.',
    refused: 'This request was not handled.',
  },
};

/** RFC 8058's `List-Unsubscribe=One-Click` alone: form-encoded, or multipart (no files) as some send it. */
async function isOneClickBody(event: Event): Promise<boolean> {
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (event.requestContext.http.method !== 'POST' || body.byteLength > waitlist.MAX_REQUEST_BYTES)
    return false;
  // The platform's parser: a body of another type, or not well formed, is no one-click post.
  const headers = { 'content-type': event.headers['content-type'] ?? '' };
  const fields = await new Response(body, { headers }).formData().catch(() => undefined);
  const [[name, value] = [], ...more] = fields ?? [];
  return name === leave.ONE_CLICK_FIELD && String(value).trim() === leave.ONE_CLICK_VALUE && !more.length;
}

async function decideLeave(event: Event): Promise<post.Decision<LeaveOutcome>> {
  if (opensPage(event)) return { outcome: 'page' };
  const query = new URLSearchParams(event.rawQueryString);
  const linkLanguage = localeOf(query.get(confirmation.LANGUAGE_PARAMETER));
  // Mail providers post one-click from their own servers: the link's secret token authorises it.
  const oneClick = post.refusalOf(event, guard) !== 'not_through_edge' && (await isOneClickBody(event));
  const body = oneClick ? { form: 'one-click' as const, fields: {} } : post.guardedBody(event, guard);
  if ('outcome' in body) return { ...body, language: body.language ?? linkLanguage };
  const shape = leaveRequestSchema.safeParse(body.fields);
  const asked = { form: body.form, language: shape.data?.language ?? linkLanguage };
  // An empty token in the link is none.
  const token = shape.success
    ? (shape.data.token ?? (query.get(leave.LEAVE_TOKEN_PARAMETER) || undefined))
    : undefined;
  if (token === undefined) return { outcome: 'invalid_request', ...asked };
  const left = await outcomeOrFault((abortSignal) => leavePerson(store, token, { abortSignal }));
  return { ...asked, ...left };
}

const leaveRoute = route<LeaveOutcome>(
  'leave',
  { page: undefined, left: METRIC.left, unknown: undefined },
  decideLeave,
  ({ outcome, form, language = DEFAULT_LOCALE }, event) => {
    if (outcome === 'page') return showLeavePage(event);
    const done = outcome === 'left' || outcome === 'unknown';
    const status = done ? 200 : API_ERROR_STATUS[outcome];
    if (form === 'one-click') {
      const text = ONE_CLICK_TEXT[language];
      const fault = outcome === 'unavailable' || outcome === 'internal';
      const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
      return {
        statusCode: status,
        headers,
        body: `${done ? text.done : fault ? text.fault : text.refused}\n`,
      };
    }
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
    if (form === 'form') return seeOther(leave.LEAVE_RESULT_PATH[done ? 'done' : 'try-again'][language]);
    return jsonAnswer(status, done ? { result: 'done' } : { error: outcome });
  },
);

// ---- POST /api/leave-request: a valid address gets the same answer, on or off the list, and no sooner than
// this (well above the store work's time), so its timing tells nothing either.
export const ANSWER_AFTER_MS = 250;
const leaveLinkSchema = z.object({ email: z.string(), language: z.optional(z.enum(LOCALES)) });

/** `not-requested` is only logged, never told. */
type LeaveLinkOutcome =
  | 'requested'
  | 'not-requested'
  | Exclude<ApiError, 'already_registered' | 'rate_limited'>;

async function decideLeaveLink(event: Event): Promise<post.Decision<LeaveLinkOutcome>> {
  const body = post.guardedAddressBody(event, guard, leaveLinkSchema);
  if ('outcome' in body) return body;
  const { form, language, address } = body;
  const [requested] = await Promise.all([
    outcomeOrFault((abortSignal) =>
      requestLeaveMail(store, address.key, { requestId: randomUUID(), abortSignal }),
    ),
    new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS)),
  ]);
  return { form, language, ...requested };
}

const leaveLinkRoute = route<LeaveLinkOutcome>(
  'leave-request',
  { requested: METRIC.leaveLinkRequested, 'not-requested': METRIC.leaveLinkRequested },
  decideLeaveLink,
  ({ outcome, form, language = DEFAULT_LOCALE }) => {
    const answered = outcome === 'requested' || outcome === 'not-requested';
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
    // The form checks the address itself: the try-again page says to go back and check it.
    if (form === 'form')
      return seeOther(leave.LEAVE_RESULT_PATH[answered ? 'requested' : 'try-again'][language]);
    return answered
      ? jsonAnswer(202, { status: 'requested' })
      : jsonAnswer(API_ERROR_STATUS[outcome], { error: outcome });
  },
);

const ROUTES: Record<ApiRoute, (event: Event) => Promise<Result>> = {
  [waitlist.WAITLIST_PATH]: joinRoute,
  [VISIT_PATH]: visitRoute,
  [confirmation.CONFIRM_PATH]: confirmRoute,
  [leave.LEAVE_PATH]: leaveRoute,
  [leave.LEAVE_REQUEST_PATH]: leaveLinkRoute,
};

// rawPath is the path as the client sent it; API Gateway may resolve another spelling (a trailing slash, dot
// segments, percent-encoding) to a route: only a route spelled exactly reaches a handler (#contract/api-routes).
export async function handler(event: Event): Promise<Result> {
  if (!isApiRoute(event.rawPath)) return jsonAnswer(404, { error: 'not_found' });
  const answer = await ROUTES[event.rawPath](event);
  // RFC 9110: a 405 names the methods the route takes.
  if (answer.statusCode === 405)
    answer.headers = { ...answer.headers, allow: API_ROUTES[event.rawPath].join(', ') };
  return answer;
}
