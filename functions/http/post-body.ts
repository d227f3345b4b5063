import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import type { BodyRefusal } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseJsonStrictly } from '../strict-input';
import type { Decision, RequestForm } from './http-handler';
import { type RequestGuardSettings, refusalOf } from './origin-guard';

// Every route reads a POST body alike: JSON or a form post, strictly UTF-8 (never decoded with replacement
// characters), at most MAX_REQUEST_BYTES, each field once (which of two was meant is a guess).

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
