import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { BodyRefusal } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { parseFormBody } from './form-body';
import { parseJsonStrictly } from './json-body';

/**
 * The body of a POST to the API, read the same way for every route: JSON (from the page's script) or a
 * form post (from a page without one), UTF-8 and nothing else, at most MAX_REQUEST_BYTES. Nothing is ever
 * decoded with replacement characters: bytes that are not what they claim to be are refused.
 */

/** How the request was sent, which decides how it is answered: JSON, or a redirect to a result page. */
export type RequestForm = 'json' | 'form';

export type RequestBody =
  | { ok: true; form: RequestForm; fields: unknown }
  | {
      ok: false;
      /** Undefined when the request is neither form, so it can only be answered with JSON. */
      form: RequestForm | undefined;
      error: BodyRefusal;
      /** The fields, when they could be read (a refusal for size or bytes has none). */
      fields?: undefined;
    };

// ignoreBOM: a byte order mark is kept, and so refused, rather than silently dropped.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A media type and its charset, lower-cased where HTTP says case does not matter. A charset given twice
 * is `ambiguous`: which one the sender meant is a guess.
 */
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

/** Only UTF-8 is read, by either name; anything else would be guessed at. */
const isUtf8 = (charset: string | undefined) =>
  charset === undefined || charset === 'utf-8' || charset === 'utf8';

/** Bytes that arrive compressed (or in any other coding) are not read, rather than read wrongly. */
const isIdentity = (contentEncoding: string | undefined) =>
  (contentEncoding ?? '')
    .split(',')
    .every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));

/**
 * The body's fields as sent: a JSON value, or a form's fields; undefined when it cannot be read, or when
 * it names a field twice (which of the two was meant is a guess).
 */
function readFields(form: RequestForm, text: string): unknown {
  if (form === 'form') {
    const body = parseFormBody(text);
    return body.ok ? body.fields : undefined;
  }
  return parseJsonStrictly(text);
}

/** Reads a POST's body, or says in one word what is wrong with the request. */
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
  const fields = readFields(form, text);
  if (fields === undefined) return { ok: false, form, error: 'invalid_request' };
  return { ok: true, form, fields };
}

/**
 * How a request was asked, for answering one that is refused before it is handled: its form, and the
 * language its `language` field names (both waitlist and confirm forms have one), when it can be read.
 */
export function howAsked(event: APIGatewayProxyEventV2): {
  form: RequestForm | undefined;
  language: Locale | undefined;
} {
  const body = readRequestBody(event);
  const language = (body.fields as { language?: unknown } | undefined)?.language;
  return { form: body.form, language: isLocale(language) ? language : undefined };
}
