import { isUtf8 } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 as Event } from 'aws-lambda';
import type * as z from 'zod/mini';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { checkEmail } from '#contract/email-address';
import type { BodyRefusal } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseJsonStrictly } from '../strict-input';
import type { FaultClass } from '../telemetry/fault-class';

// Every POST passes the request guard (the edge's secret, then same-site), then its body is read alike: JSON
// or a form post, strictly UTF-8, at most MAX_REQUEST_BYTES, each field once (which of two was meant is a guess).

type RequestForm = 'json' | 'form';

/** What a route made of a request; it is logged, so never an address or a token. */
export interface Decision<Outcome> {
  outcome: Outcome;
  /** `one-click`: the leave route's RFC 8058 post. */
  form?: RequestForm | 'one-click';
  language?: Locale;
  refusal?: 'not_through_edge' | 'cross_site';
  source?: string;
  /** Never the error's message, which may quote the request. */
  fault?: { faultClass: FaultClass; errorName: string };
  /** The mailbox simulator's (`waitlist smoke`): answered as any, its outcome's metric not counted. */
  uncounted?: boolean;
}

/** No secret locally, where there is no edge; behind CloudFront the Host is the API's, so siteHosts name the site's. */
export type RequestGuardSettings = { originVerifySecret: string | undefined; siteHosts: readonly string[] };

export function requestGuardSettingsFrom(environment: NodeJS.ProcessEnv): RequestGuardSettings {
  const secret = environment.ORIGIN_VERIFY_SECRET;
  // An empty secret would let anything through while looking configured.
  if (secret === '') throw new Error('ORIGIN_VERIFY_SECRET is set but empty');
  const origins = (environment.SITE_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  const siteHosts = origins.filter(Boolean).map((origin) => {
    const host = hostOf(origin);
    if (host === undefined) throw new Error(`SITE_ORIGINS holds "${origin}", which is not an origin`);
    return host;
  });
  return { originVerifySecret: secret, siteHosts };
}

function hostOf(origin: string): string | undefined {
  const url = URL.parse(origin);
  return url?.protocol === 'https:' || url?.protocol === 'http:' ? url.host : undefined;
}

/** Whether `url` is on the request's own Host (an empty or missing one matches nothing) or in `siteHosts`. */
export function isOwnOrigin(event: Event, url: string, siteHosts: readonly string[]) {
  const host = hostOf(url);
  return (
    host !== undefined && (host === hostOf(`http://${event.headers.host ?? ''}`) || siteHosts.includes(host))
  );
}

// Hashed to one length, so the comparison takes the same time whatever was sent.
const digest = (value: string) => createHash('sha256').update(value).digest();

export function refusalOf(event: Event, { originVerifySecret, siteHosts }: RequestGuardSettings) {
  const { headers } = event;
  const sent = headers[ORIGIN_VERIFY_HEADER];
  if (
    originVerifySecret !== undefined &&
    !(sent && timingSafeEqual(digest(sent), digest(originVerifySecret)))
  )
    return 'not_through_edge';
  // A link opened from a mail is cross-site by nature; only a POST changes anything. Silent clients pass.
  if (event.requestContext.http.method !== 'POST') return undefined;
  const fetchSite = headers['sec-fetch-site']?.trim().toLowerCase();
  if (fetchSite === 'cross-site') return 'cross_site';
  const origin = headers.origin?.trim();
  // A page with `no-referrer` (the confirmation page keeps its token out of Referer) posts `Origin: null`;
  // the browser still says same-origin. Otherwise `null` (a sandboxed frame, a data: page) is another site.
  if (origin === undefined || (origin === 'null' && fetchSite === 'same-origin')) return undefined;
  return isOwnOrigin(event, origin, siteHosts) ? undefined : 'cross_site';
}

// The WHATWG form rules, but escaped bytes must be valid UTF-8: URLSearchParams turns broken bytes into
// U+FFFD, and a component mixing escapes, a lone `%` and other characters into Latin-1, so two different
// addresses could become one. Each name and value is decoded on its own.
function decodeComponent(text: string): string | undefined {
  try {
    // A `%` without two hex digits stays itself, as browsers read it.
    return decodeURIComponent(text.replaceAll('+', ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return undefined;
  }
}

/** Undefined for broken bytes or a field sent twice. */
export function parseFormBody(body: string): Record<string, string> | undefined {
  const fields: Record<string, string> = Object.create(null);
  for (const pair of body.split('&').filter(Boolean)) {
    const equals = pair.includes('=') ? pair.indexOf('=') : pair.length;
    const name = decodeComponent(pair.slice(0, equals));
    const value = decodeComponent(pair.slice(equals + 1));
    if (name === undefined || value === undefined || Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  return fields;
}

export function readRequestBody(
  event: Event,
):
  | { ok: true; form: RequestForm; fields: unknown }
  | { ok: false; form: RequestForm | undefined; error: BodyRefusal; fields?: undefined } {
  const [mediaType = '', ...parameters] = (event.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  const form = type === JSON_CONTENT_TYPE ? 'json' : type === FORM_CONTENT_TYPE ? 'form' : undefined;
  if (event.requestContext.http.method !== 'POST') return { ok: false, form, error: 'method_not_allowed' };
  // A charset given twice is refused: which one the sender meant is a guess. Bytes in a content coding
  // are not read, rather than read wrongly.
  const [charset, ...more] = parameters.filter((parameter) => /^\s*charset\s*=/i.test(parameter));
  const utf8 = !more.length && (charset === undefined || /^\s*charset\s*=\s*("?)utf-?8\1\s*$/i.test(charset));
  const identity = (event.headers['content-encoding'] ?? '')
    .split(',')
    .every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));
  if (!form || !utf8 || !identity) return { ok: false, form: undefined, error: 'unsupported_media_type' };
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return { ok: false, form, error: 'payload_too_large' };
  // A byte order mark is kept, and so refused, rather than silently dropped.
  const text = isUtf8(body) ? body.toString() : undefined;
  const fields =
    text === undefined ? undefined : form === 'form' ? parseFormBody(text) : parseJsonStrictly(text);
  return fields === undefined ? { ok: false, form, error: 'invalid_request' } : { ok: true, form, fields };
}

/** A POST's form and fields, or what is decided on it when the guard refuses it or it cannot be read. */
export function guardedBody(
  event: Event,
  guard: RequestGuardSettings,
): { form: RequestForm; fields: unknown } | Decision<'forbidden' | BodyRefusal> {
  const refusal = refusalOf(event, guard);
  if (refusal === 'not_through_edge') return { outcome: 'forbidden', refusal };
  const body = readRequestBody(event);
  if (refusal) return { outcome: 'forbidden', refusal, form: body.form, language: languageOf(body.fields) };
  return body.ok ? body : { outcome: body.error, form: body.form };
}

/** A guarded POST whose fields have `schema`'s shape and a valid address: the join and the leave-link request. */
export function guardedAddressBody<Fields extends { email: string }>(
  event: Event,
  guard: RequestGuardSettings,
  schema: z.ZodMiniType<Fields>,
):
  | { form: RequestForm; language?: Locale; fields: Fields; address: { email: string; key: string } }
  | Decision<'forbidden' | BodyRefusal | 'invalid_email'> {
  const body = guardedBody(event, guard);
  if ('outcome' in body) return body;
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = schema.safeParse(fields);
  if (!shape.success) return { outcome: 'invalid_request', form, language };
  const address = checkEmail(shape.data.email);
  if (!address.ok) return { outcome: 'invalid_email', form, language };
  return { form, language, fields: shape.data, address };
}

const languageOf = (fields: unknown): Locale | undefined => {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : undefined;
};
