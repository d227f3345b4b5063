import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { API_ERROR_STATUS, type BodyRefusal } from '#contract/http-status';
import {
  LEAVE_LANGUAGE_PARAMETER,
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
import { FORM_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { crossSitePage, tokenPage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { languageOf, parseFormBody, readRequestBody } from '../http/request-body';
import { refusalOf, requestGuardSettingsFrom } from '../http/request-guard';
import { storeFromEnvironment } from '../store/store-client';
import { type LeaveResult, leavePerson } from './leave-person';

// GET shows the page and removes no one (link scanners open links); POST leaves: RFC 8058 one-click gets
// plain text, the form 303, the script JSON. Answers never tell whether the token belonged to anyone.

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage(process.env.LEAVE_PAGES_DIR, leavePageFile, LEAVE_TOKEN_PLACEHOLDER, [
  LEAVE_LANGUAGE_PARAMETER,
  LEAVE_TOKEN_PARAMETER,
]);

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
function isOneClickBody(event: APIGatewayProxyEventV2): boolean {
  const [mediaType = '', ...parameters] = (event.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (event.requestContext.http.method !== 'POST' || body.byteLength > MAX_REQUEST_BYTES) return false;
  const text = body.toString('latin1');
  let fields = type === FORM_CONTENT_TYPE ? parseFormBody(text) : undefined;
  const boundary = parameters
    .map((parameter) => parameter.trim().match(/^boundary="?([^"]+)"?$/i)?.[1])
    .find((value) => value !== undefined);
  if (type === 'multipart/form-data' && boundary !== undefined) {
    // A preamble and an epilogue are ignored.
    const sections = text.split(`--${boundary}`);
    if (sections.length < 3 || !sections.at(-1)?.startsWith('--')) return false;
    fields = Object.create(null) as Record<string, string>;
    for (const section of sections.slice(1, -1)) {
      const part = section.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
      const split = part.search(/\r?\n\r?\n/);
      const headers = part.slice(0, split);
      const name = headers.match(/^content-disposition:\s*form-data;(?:.*;)?\s*name="([^"]*)"/im)?.[1];
      if (split < 0 || name === undefined || /filename=/i.test(headers) || Object.hasOwn(fields, name))
        return false;
      fields[name] = part.slice(split).replace(/^\r?\n\r?\n/, '');
    }
  }
  return (
    fields !== undefined &&
    Object.keys(fields).length === 1 &&
    fields[ONE_CLICK_FIELD]?.trim() === ONE_CLICK_VALUE
  );
}

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  const refusal = refusalOf(event, guard);
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  if (['GET', 'HEAD'].includes(event.requestContext.http.method)) return { outcome: 'page' };
  const query = new URLSearchParams(event.rawQueryString);
  const queryToken = query.get(LEAVE_TOKEN_PARAMETER);
  const queryLanguage = query.get(LEAVE_LANGUAGE_PARAMETER);
  let language = isLocale(queryLanguage) ? queryLanguage : undefined;
  let asked: Decision<Outcome>['asked'] = 'one-click';
  let token = queryToken || undefined;
  // Mail providers post one-click from their own servers: the link's secret token authorises it.
  if (!isOneClickBody(event)) {
    const body = readRequestBody(event);
    asked = body.form;
    if (refusal)
      return { outcome: 'forbidden', refusal, asked, language: languageOf(body.fields) ?? language };
    if (!body.ok) return { outcome: body.error, asked, language };
    const shape = leaveRequestSchema.safeParse(body.fields);
    token = shape.success ? (shape.data[LEAVE_TOKEN_FIELD] ?? queryToken ?? undefined) : undefined;
    language = (shape.success ? shape.data.language : undefined) ?? language;
  }
  if (token === undefined) return { outcome: 'invalid_request', asked, language };
  const left = await outcomeOrFault((abortSignal) => leavePerson(store, token, { abortSignal }));
  return { asked, language, ...left };
}

export const handler = httpHandler<Outcome>(
  'leave',
  { page: undefined, left: METRIC.left, unknown: undefined },
  decide,
  ({ outcome, asked, language = DEFAULT_LOCALE }, event) => {
    if (outcome === 'page') return showPage(event);
    const done = outcome === 'left' || outcome === 'unknown';
    const status = done ? 200 : API_ERROR_STATUS[outcome];
    if (asked === 'one-click') {
      const text = ONE_CLICK_TEXT[language];
      const fault = outcome === 'unavailable' || outcome === 'internal';
      return {
        statusCode: status,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        body: `${done ? text.done : fault ? text.fault : text.refused}\n`,
      };
    }
    if (asked === 'form' && outcome === 'forbidden') return crossSitePage('leaving', language);
    if (asked === 'form') return seeOther(LEAVE_RESULT_PATH[done ? 'done' : 'try-again'][language]);
    return jsonAnswer(status, done ? { result: 'done' } : { error: outcome }, 'GET, HEAD, POST');
  },
);
