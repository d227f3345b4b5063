/**
 * Confirming a signup by mail (double opt-in): the link in the mail, the confirmation page it opens, and
 * what the API answers when the visitor presses its button. The handler, the mailer, the local runner
 * and the page all import it. No runtime dependencies.
 *
 * Opening the link never confirms (mail scanners open links): `GET /api/confirm?lang=…&t=…` shows the page,
 * and only `POST /api/confirm` with the token confirms. Like the waitlist API, the POST comes as JSON
 * (`{ "token" }`, from the page's script, answered with JSON) or as a plain HTML form post (the `token`
 * field, answered with 303 to a result page in the page's language). None of the answers says whether an
 * address is on the list: only the holder of a token learns what became of that token.
 */
import { statusTable } from './http-status';
import type { Locale } from './locales';

export const CONFIRM_PATH = '/api/confirm';

/** The token's query parameter in the link, and its field in the form and the JSON body. */
export const TOKEN_PARAMETER = 't';
export const LANGUAGE_PARAMETER = 'lang';
export const TOKEN_FIELD = 'token';

/**
 * The confirmation page is prerendered once per language with this in place of the token (in the form's
 * hidden field); the API function puts the token from the link there when it serves the page.
 */
export const TOKEN_PLACEHOLDER = '__confirmation_token__';

/** The prerendered confirmation page of each language, as the build writes it (dist/.mandje/). */
export const confirmPageFile = (language: Locale) => `confirm.${language}.html`;

/** The link in a confirmation mail, on the site's own origin. */
export function confirmationLink(siteUrl: string, language: Locale, token: string): string {
  const url = new URL(CONFIRM_PATH, siteUrl);
  url.searchParams.set(LANGUAGE_PARAMETER, language);
  url.searchParams.set(TOKEN_PARAMETER, token);
  return url.href;
}

/** A confirm request's fields; a form post also says its language, for the page it is sent on to. */
export interface ConfirmRequest {
  token: string;
  language?: Locale;
}

/** What became of a token when its button was pressed. */
export const CONFIRM_RESULTS = [
  /** The signup is confirmed now. */
  'confirmed',
  /** This token confirmed the signup before: pressed twice, or the link opened again. */
  'already-confirmed',
  /** The link is older than PENDING_DAYS. */
  'expired',
  /** The token is not one this site makes: changed, cut off, or made up. */
  'invalid',
  /** A token of the right shape that confirms nothing: used up, replaced by a newer mail, or forgotten. */
  'unknown',
] as const;
export type ConfirmResult = (typeof CONFIRM_RESULTS)[number];

/**
 * Each answer's status: 200 for every result, and each error's from #contract/http-status. `unavailable`
 * is a transient fault (pressing again may work); `internal` a permanent one, logged and alarmed, though
 * the page still says to try again later.
 */
export const CONFIRM_HTTP_STATUS = statusTable({ result: 200 }, [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'forbidden',
  'rate_limited',
  'unavailable',
  'internal',
]);

export type ConfirmError = Exclude<keyof typeof CONFIRM_HTTP_STATUS, 'result'>;

/** The JSON answer: the result, or an error with the request itself. */
export type ConfirmResponse = { result: ConfirmResult } | { error: ConfirmError };

/** Where a plain form post is sent on to: one page per result, and one to try again. */
export const CONFIRM_RESULT_PAGES = [...CONFIRM_RESULTS, 'try-again'] as const;
export type ConfirmResultPage = (typeof CONFIRM_RESULT_PAGES)[number];

export const CONFIRM_RESULT_PATH = Object.fromEntries(
  CONFIRM_RESULT_PAGES.map((page) => [page, { nl: `/confirm/${page}`, en: `/en/confirm/${page}` }]),
) as Record<ConfirmResultPage, Record<Locale, string>>;
