import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { LANGUAGE_PARAMETER } from '#contract/confirmation';
import { API_ERROR_STATUS, type BodyRefusal } from '#contract/http-status';
import {
  LEAVE_RESULT_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
  leavePageFile,
  ONE_CLICK_FIELD,
  ONE_CLICK_VALUE,
} from '#contract/leave';
import { DEFAULT_LOCALE, isLocale, LOCALES } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage, tokenPage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { opensPage, refusalOf, requestGuardSettingsFrom } from '../http/origin-guard';
import { guardedBody } from '../http/post-body';
import { storeFromEnvironment } from '../store/store-client';
import { type LeaveResult, leavePerson } from './leave-person';

// GET shows the page and removes no one (link scanners open links); POST leaves: RFC 8058 one-click gets
// plain text, the form 303, the script JSON. Answers never tell whether the token belonged to anyone.

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage(process.env.LEAVE_PAGES_DIR, leavePageFile, LEAVE_TOKEN_PLACEHOLDER);

const leaveRequestSchema = z.object({
  [LEAVE_TOKEN_FIELD]: z.optional(z.string()),
  language: z.optional(z.enum(LOCALES)),
});

type Outcome = LeaveResult | BodyRefusal | 'forbidden' | 'unavailable' | 'internal' | 'page';

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
async function isOneClickBody(event: APIGatewayProxyEventV2): Promise<boolean> {
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (event.requestContext.http.method !== 'POST' || body.byteLength > MAX_REQUEST_BYTES) return false;
  const headers = { 'content-type': event.headers['content-type'] ?? '' };
  // The platform's parser: a body of another type, or not well formed, is no one-click post.
  const fields = await new Response(body, { headers }).formData().catch(() => undefined);
  const [[name, value] = [], ...more] = fields ?? [];
  return (
    name === ONE_CLICK_FIELD &&
    typeof value === 'string' &&
    value.trim() === ONE_CLICK_VALUE &&
    more.length === 0
  );
}

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  if (opensPage(event, guard)) return { outcome: 'page' };
  const query = new URLSearchParams(event.rawQueryString);
  const queryLanguage = query.get(LANGUAGE_PARAMETER);
  const language = isLocale(queryLanguage) ? queryLanguage : undefined;
  // Mail providers post one-click from their own servers: the link's secret token authorises it.
  const oneClick = refusalOf(event, guard) !== 'not_through_edge' && (await isOneClickBody(event));
  const body = oneClick ? { form: 'one-click' as const, fields: {} } : guardedBody(event, guard);
  if ('outcome' in body) return { ...body, language: body.language ?? language };
  const shape = leaveRequestSchema.safeParse(body.fields);
  const asked = { form: body.form, language: (shape.success ? shape.data.language : undefined) ?? language };
  // An empty token in the link is none.
  const token = shape.success
    ? (shape.data[LEAVE_TOKEN_FIELD] ?? (query.get(LEAVE_TOKEN_PARAMETER) || undefined))
    : undefined;
  if (token === undefined) return { outcome: 'invalid_request', ...asked };
  const left = await outcomeOrFault((abortSignal) => leavePerson(store, token, { abortSignal }));
  return { ...asked, ...left };
}

export const handler = httpHandler<Outcome>(
  'leave',
  { page: undefined, left: METRIC.left, unknown: undefined },
  decide,
  ({ outcome, form, language = DEFAULT_LOCALE }, event) => {
    if (outcome === 'page') return showPage(event);
    const done = outcome === 'left' || outcome === 'unknown';
    const status = done ? 200 : API_ERROR_STATUS[outcome];
    if (form === 'one-click') {
      const text = ONE_CLICK_TEXT[language];
      const fault = outcome === 'unavailable' || outcome === 'internal';
      return {
        statusCode: status,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        body: `${done ? text.done : fault ? text.fault : text.refused}\n`,
      };
    }
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
    if (form === 'form') return seeOther(LEAVE_RESULT_PATH[done ? 'done' : 'try-again'][language]);
    return jsonAnswer(status, done ? { result: 'done' } : { error: outcome }, 'GET, HEAD, POST');
  },
);
