import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { checkEmail } from '#contract/email-address';
import type { BodyRefusal } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseJsonStrictly } from '../strict-input';
import type { Decision, GuardRefusal, RequestForm } from './http-handler';

// Every POST passes the request guard (the edge's secret, then same-site), then its body is read alike: JSON
// or a form post, strictly UTF-8, at most MAX_REQUEST_BYTES, each field once (which of two was meant is a guess).

// originVerifySecret is undefined locally, where there is no edge; behind CloudFront the Host is the API's,
// so siteHosts name the site's own.
export type RequestGuardSettings = { originVerifySecret: string | undefined; siteHosts: readonly string[] };

export function requestGuardSettingsFrom(environment: NodeJS.ProcessEnv): RequestGuardSettings {
  const secret = environment.ORIGIN_VERIFY_SECRET;
  // An empty secret would let anything through while looking configured.
  if (secret === '') throw new Error('ORIGIN_VERIFY_SECRET is set but empty');
  const siteHosts = (environment.SITE_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      const host = hostOf(origin);
      if (host === undefined) throw new Error(`SITE_ORIGINS holds "${origin}", which is not an origin`);
      return host;
    });
  return { originVerifySecret: secret, siteHosts };
}

function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` is on the request's own Host (an empty or missing one matches nothing) or in `siteHosts`. */
export function isOwnOrigin(event: APIGatewayProxyEventV2, url: string, siteHosts: readonly string[]) {
  const host = hostOf(url);
  return (
    host !== undefined && (host === hostOf(`http://${event.headers?.host ?? ''}`) || siteHosts.includes(host))
  );
}

// Hashed to one length, so the comparison takes the same time whatever was sent.
const digest = (value: string) => createHash('sha256').update(value).digest();

export function refusalOf(
  event: APIGatewayProxyEventV2,
  { originVerifySecret, siteHosts }: RequestGuardSettings,
): GuardRefusal | undefined {
  const headers = event.headers ?? {};
  if (originVerifySecret !== undefined) {
    const sent = headers[ORIGIN_VERIFY_HEADER];
    if (sent === undefined || !timingSafeEqual(digest(sent), digest(originVerifySecret)))
      return 'not_through_edge';
  }
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

// ignoreBOM: a byte order mark is kept, and so refused, rather than silently dropped.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined || Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  return fields;
}

export function readRequestBody(
  event: APIGatewayProxyEventV2,
):
  | { ok: true; form: RequestForm; fields: unknown }
  | { ok: false; form: RequestForm | undefined; error: BodyRefusal; fields?: undefined } {
  const [mediaType = '', ...parameters] = (event.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  const form = type === JSON_CONTENT_TYPE ? 'json' : type === FORM_CONTENT_TYPE ? 'form' : undefined;
  if (event.requestContext.http.method !== 'POST') return { ok: false, form, error: 'method_not_allowed' };
  const charsets = parameters
    .map((parameter) => parameter.split('='))
    .filter(([name, value]) => value !== undefined && name?.trim().toLowerCase() === 'charset')
    .map(([, value = '']) => value.trim().replace(/^"(.*)"$/, '$1'));
  // A charset given twice is refused: which one the sender meant is a guess. Bytes in a content coding
  // are not read, rather than read wrongly.
  const utf8 =
    charsets.length === 0 ||
    (charsets.length === 1 && ['utf-8', 'utf8'].includes(charsets[0]?.toLowerCase() ?? ''));
  const identity = (event.headers['content-encoding'] ?? '')
    .split(',')
    .every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));
  if (!form || !utf8 || !identity) return { ok: false, form: undefined, error: 'unsupported_media_type' };
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return { ok: false, form, error: 'payload_too_large' };
  let text: string;
  try {
    text = STRICT_UTF8.decode(body);
  } catch {
    return { ok: false, form, error: 'invalid_request' };
  }
  const fields = form === 'form' ? parseFormBody(text) : parseJsonStrictly(text);
  if (fields === undefined) return { ok: false, form, error: 'invalid_request' };
  return { ok: true, form, fields };
}

/** A POST's form and fields, or what is decided on it when the guard refuses it or it cannot be read. */
export function guardedBody(
  event: APIGatewayProxyEventV2,
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
  event: APIGatewayProxyEventV2,
  guard: RequestGuardSettings,
  schema: z.ZodMiniType<Fields>,
):
  | { form: RequestForm; language?: Locale; fields: Fields; address: { email: string; key: string } }
  | Decision<'forbidden' | BodyRefusal | 'invalid_request' | 'invalid_email'> {
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

export function languageOf(fields: unknown): Locale | undefined {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : undefined;
}
