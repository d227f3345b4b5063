/**
 * The waitlist API's contract: path, limits, request and response shapes. The handler, the local runner
 * and the page all import it. It has no runtime dependencies, so the page pays only for what it uses.
 *
 * A request comes in one of two forms, with the same fields and the same rules:
 * - JSON (`application/json`), sent by the page's script: the answer is JSON, its status from
 *   WAITLIST_HTTP_STATUS.
 * - A plain HTML form post (`application/x-www-form-urlencoded`), sent by the same form when no script
 *   runs: the answer is `303 See Other` to the result page for the outcome, in the form's language
 *   (WAITLIST_RESULT_PATH). The address is never in that URL.
 * Either body is UTF-8, and nothing else: a declared charset other than UTF-8, or any Content-Encoding but
 * `identity`, is 415; bytes that are not valid UTF-8 are 400 `invalid_request`.
 */
import { statusTable } from './http-status';
import type { Locale } from './locales';

export const WAITLIST_PATH = '/api/waitlist';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Requests larger than this are refused before they are parsed, in either form. */
export const MAX_REQUEST_BYTES = 1024;

/**
 * Which text a visitor agreed to by signing up: the signup note (messages.*.signup.note) and the privacy
 * sentence after it, with its link to the privacy notice (messages.*.signup.privacySentence and
 * privacyLink), which describe the confirmation by mail. Change it whenever either wording changes, so
 * every record says what its owner was told, and what they confirmed (confirmedConsentVersion).
 */
export const SIGNUP_NOTE_VERSION = '2026-11-22.2';

/** The fields of a request, in either form; a form post carries them as its fields' names. */
export interface JoinWaitlistRequest {
  email: string;
  language: Locale;
  /** A honeypot: hidden from people, so only robots fill it in. */
  website?: string;
}

/** Each answer's status: 201 for a signup, and each error's from #contract/http-status. */
export const WAITLIST_HTTP_STATUS = statusTable({ joined: 201 }, [
  'already_registered',
  'invalid_email',
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'forbidden',
  'rate_limited',
  'unavailable',
  'internal',
]);

export type JoinWaitlistError = Exclude<keyof typeof WAITLIST_HTTP_STATUS, 'joined'>;

export type JoinWaitlistResponse = { status: 'joined' } | { error: JoinWaitlistError };

/** The pages a plain form post is sent on to, one per kind of outcome. */
export const WAITLIST_RESULTS = ['joined', 'already-registered', 'invalid-email', 'try-again'] as const;
export type WaitlistResult = (typeof WAITLIST_RESULTS)[number];

/** Where each result page lives, per language: below /waitlist/, and below /en/ in English. */
export const WAITLIST_RESULT_PATH = Object.fromEntries(
  WAITLIST_RESULTS.map((result) => [result, { nl: `/waitlist/${result}`, en: `/en/waitlist/${result}` }]),
) as Record<WaitlistResult, Record<Locale, string>>;

/**
 * What a form post's outcome shows. A request the form cannot have sent (a missing field, too large) is
 * treated as an address to check again. A fault, transient or permanent, shows SPEC's one error notice
 * ("Something went wrong. Please try again."); only the log and the alarms tell the two apart.
 */
export const WAITLIST_RESULT_OF = {
  joined: 'joined',
  already_registered: 'already-registered',
  invalid_email: 'invalid-email',
  invalid_request: 'invalid-email',
  payload_too_large: 'invalid-email',
  unavailable: 'try-again',
  // SPEC has one error notice for every other fault; the operator is alarmed for this one.
  internal: 'try-again',
} as const satisfies Partial<Record<'joined' | JoinWaitlistError, WaitlistResult>>;
