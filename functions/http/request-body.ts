import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { BodyRefusal } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseFormBody } from './form-body';
import { parseJsonStrictly } from './json-body';

// Every route reads a POST body alike: JSON or a form post, strictly UTF-8 (never decoded with replacement
// characters), at most MAX_REQUEST_BYTES.

/** JSON is answered with JSON, a form post with a redirect to a result page. */
export type RequestForm = 'json' | 'form';

type RequestBody =
  | { ok: true; form: RequestForm; fields: unknown }
  | { ok: false; form: RequestForm | undefined; error: BodyRefusal; fields?: undefined };

// ignoreBOM: a byte order mark is kept, and so refused, rather than silently dropped.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A charset given twice is `ambiguous`: which one the sender meant is a guess. */
function parseContentType(header: string | undefined): { type: string; charset: string | undefined } {
  const [type = '', ...parameters] = (header ?? '').split(';');
  const charsets = parameters
    .map((parameter) => parameter.split('='))
    .filter(([name, value]) => value !== undefined && name?.trim().toLowerCase() === 'charset')
    .map(([, value = '']) =>
      value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase(),
    );
  return { type: type.trim().toLowerCase(), charset: charsets.length > 1 ? 'ambiguous' : charsets[0] };
}

const formOf = (type: string): RequestForm | undefined =>
  type === JSON_CONTENT_TYPE ? 'json' : type === FORM_CONTENT_TYPE ? 'form' : undefined;

const isUtf8 = (charset: string | undefined) =>
  charset === undefined || charset === 'utf-8' || charset === 'utf8';

/** Bytes in any other coding are not read, rather than read wrongly. */
const isIdentity = (contentEncoding: string | undefined) =>
  (contentEncoding ?? '')
    .split(',')
    .every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));

export function readRequestBody(event: APIGatewayProxyEventV2): RequestBody {
  const { type, charset } = parseContentType(event.headers['content-type']);
  const form = formOf(type);
  if (event.requestContext.http.method !== 'POST') return { ok: false, form, error: 'method_not_allowed' };
  if (!form || !isUtf8(charset) || !isIdentity(event.headers['content-encoding'])) {
    return { ok: false, form: undefined, error: 'unsupported_media_type' };
  }
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return { ok: false, form, error: 'payload_too_large' };
  let text: string;
  try {
    text = STRICT_UTF8.decode(body);
  } catch {
    return { ok: false, form, error: 'invalid_request' };
  }
  // Undefined when unreadable, or when a field comes twice (which was meant is a guess).
  const fields = form === 'form' ? parseFormBody(text) : parseJsonStrictly(text);
  if (fields === undefined) return { ok: false, form, error: 'invalid_request' };
  return { ok: true, form, fields };
}

/** For answering a request refused before it is handled: its form and `language` field. */
export function howAsked(event: APIGatewayProxyEventV2): {
  form: RequestForm | undefined;
  language: Locale | undefined;
} {
  const body = readRequestBody(event);
  return { form: body.form, language: languageOf(body.fields) };
}

export function languageOf(fields: unknown): Locale | undefined {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : undefined;
}
