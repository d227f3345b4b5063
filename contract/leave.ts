/**
 * Leaving the waitlist, in one click (GDPR art. 7(3), Telecommunicatiewet art. 11.7, RFC 8058). Every mail
 * carries a personal leave link on the site's own origin; it names no address and works as long as the
 * person's record exists. The handler, the mailer, the announcement, the local runner and the page all
 * import it. No runtime dependencies.
 *
 * - `GET /api/leave?lang=…&t=…` shows a page with one button (link scanners open links: opening alone
 *   removes no one).
 * - `POST /api/leave?lang=…&t=…` removes the person: with the body `List-Unsubscribe=One-Click` (what a
 *   mail client sends for RFC 8058) it answers 200; the page's form (`token` and `language` fields, or the
 *   same one-click body) gets 303 to LEAVE_RESULT_PATH; the page's script (JSON `{ "token" }`) gets JSON.
 * - Every answer is the same whether or not the token belongs to anyone: "you've left the waitlist".
 *   Nothing tells a stranger who is on the list.
 * - `POST /api/leave-request` (`email`, `language`), the privacy page's form for a person without a mail at
 *   hand, always answers that a mail with a link to leave is on its way if the address is on the list.
 */
import type { Locale } from './locales';

export const LEAVE_PATH = '/api/leave';
export const LEAVE_REQUEST_PATH = '/api/leave-request';

/** The token's query parameter in the link, and its field in the form and the JSON body. */
export const LEAVE_TOKEN_PARAMETER = 't';
export const LEAVE_LANGUAGE_PARAMETER = 'lang';
export const LEAVE_TOKEN_FIELD = 'token';

/** RFC 8058: the body a mail client POSTs to the List-Unsubscribe URL. */
export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

/** The leave page is prerendered per language with this in place of the token (dist/.mandje/). */
export const LEAVE_TOKEN_PLACEHOLDER = '__leave_token__';
export const leavePageFile = (language: Locale) => `leave.${language}.html`;

/** A person's leave link, on the site's own origin. */
export function leaveLink(siteUrl: string, language: Locale, token: string): string {
  const url = new URL(LEAVE_PATH, siteUrl);
  url.searchParams.set(LEAVE_LANGUAGE_PARAMETER, language);
  url.searchParams.set(LEAVE_TOKEN_PARAMETER, token);
  return url.href;
}

/** Where a plain form post is sent on to: done (whoever the token was), sent (a leave link asked for), or try again. */
export const LEAVE_RESULT_PAGES = ['done', 'requested', 'try-again'] as const;
export type LeaveResultPage = (typeof LEAVE_RESULT_PAGES)[number];

export const LEAVE_RESULT_PATH = Object.fromEntries(
  LEAVE_RESULT_PAGES.map((page) => [page, { nl: `/leave/${page}`, en: `/en/leave/${page}` }]),
) as Record<LeaveResultPage, Record<Locale, string>>;

/** A leave link is asked for again by the privacy page's form at most this often per address. */
export const LEAVE_MAIL_INTERVAL_MINUTES = 10;
