import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { isLocale, LOCALES, type Locale } from '#contract/locales';
import {
  FORM_CONTENT_TYPE,
  type JoinWaitlistError,
  type JoinWaitlistRequest,
  JSON_CONTENT_TYPE,
  MAX_REQUEST_BYTES,
} from '#contract/waitlist-api';
import { parseFormBody } from './form-body';

// zod/mini: the same checks as zod, tree-shaken to what is used (the full build adds ~450 KB to the bundle).
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
}) satisfies z.ZodMiniType<JoinWaitlistRequest>;

/** How the request was sent, which decides how it is answered: JSON, or a redirect to a result page. */
export type RequestForm = 'json' | 'form';

/** A request that may be stored: its fields, with the address's canonical key. */
export type JoinRequest = JoinWaitlistRequest & { key: string };

export type ParsedJoinRequest =
  | { ok: true; form: RequestForm; request: JoinRequest }
  | {
      ok: false;
      /** Undefined when the request is neither form, so it can only be answered with JSON. */
      form: RequestForm | undefined;
      /** The language the request asked for, when it got as far as saying one. */
      language: Locale | undefined;
      error: Exclude<JoinWaitlistError, 'already_registered' | 'unavailable'>;
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

/** The body's fields as sent: a JSON value, or a form's fields; undefined when it cannot be read. */
function readFields(form: RequestForm, text: string): unknown {
  if (form === 'form') {
    const body = parseFormBody(text);
    return body.ok ? body.fields : undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const languageOf = (fields: unknown): Locale | undefined => {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : undefined;
};

/** Everything that can be wrong with a request, checked before anything is stored. */
export function parseJoinRequest(event: APIGatewayProxyEventV2): ParsedJoinRequest {
  const contentType = parseContentType(event.headers['content-type']);
  const form = formOf(contentType.type);
  const refuse = (error: Extract<ParsedJoinRequest, { ok: false }>['error'], language?: Locale) =>
    ({ ok: false, form, language, error }) as const;

  if (event.requestContext.http.method !== 'POST') return refuse('method_not_allowed');
  if (!form || !isUtf8(contentType.charset) || !isIdentity(event.headers['content-encoding'])) {
    return { ok: false, form: undefined, language: undefined, error: 'unsupported_media_type' };
  }

  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return refuse('payload_too_large');
  let text: string;
  try {
    text = STRICT_UTF8.decode(body);
  } catch {
    return refuse('invalid_request');
  }

  const fields = readFields(form, text);
  const language = languageOf(fields);
  const shape = joinRequestSchema.safeParse(fields);
  if (!shape.success) return refuse('invalid_request', language);

  const email = checkEmail(shape.data.email);
  if (!email.ok) return refuse('invalid_email', language);
  return { ok: true, form, request: { ...shape.data, email: email.email, key: email.key } };
}
