/**
 * The limits that keep the waitlist from being turned against anyone's inbox, shared by the functions,
 * the local runner, the stack and the privacy notice. See README "Abuse and limits".
 */
import { LEAVE_PATH } from './leave';
import { VISIT_PATH } from './visit-counting';

/**
 * Mails sent to one mailbox on request (its delivery key, #contract/email-address, however the address is
 * spelled): confirmations, their resends and leave links, one budget for all, in any MAIL_LIMIT_WINDOW_HOURS
 * (a sliding window, not a day that starts afresh). The announcement is not counted: it goes once, to the
 * confirmed. Past it, the visitor sees what they would have seen; the mail is not sent, nor owed.
 */
export const MAILS_PER_MAILBOX = 3;
export const MAIL_LIMIT_WINDOW_HOURS = 24;

/**
 * POSTs to `/api/*` (but CLIENT_LIMIT_EXEMPT_PATHS) one client (an IP address) may send per minute:
 * AWS WAF on CloudFront in production, the runner's adapter locally (SIGNUP_RATE_LIMIT overrides it there; 0
 * turns it off). Past it: 429.
 */
export const CLIENT_POSTS_PER_MINUTE = 20;

/** Where the per-client limit counts POSTs: every path under it. */
export const CLIENT_LIMITED_PREFIX = '/api/';

/**
 * Posts at these paths or under them are not counted, as they send no mail. Leaving only deletes, and mail
 * providers send RFC 8058 one-click posts for many people from a few addresses; asking for a leave link by
 * mail (LEAVE_REQUEST_PATH) sends one, and stays limited. A home page's visit beacon (#contract/visit-counting)
 * only counts, and comes with every page load: counted, it would spend a visitor's signups.
 */
export const CLIENT_LIMIT_EXEMPT_PATHS = [LEAVE_PATH, VISIT_PATH] as const;

/**
 * Whether the per-client limit counts a request: a POST under CLIENT_LIMITED_PREFIX, not to one of
 * CLIENT_LIMIT_EXEMPT_PATHS or under it. `path` is decoded, without the query, as AWS WAF matches it.
 */
export function countsTowardClientLimit(method: string, path: string): boolean {
  return (
    method === 'POST' &&
    path.startsWith(CLIENT_LIMITED_PREFIX) &&
    !CLIENT_LIMIT_EXEMPT_PATHS.some((exempt) => path === exempt || path.startsWith(`${exempt}/`))
  );
}

/**
 * The header CloudFront adds to every request it sends to the API, with a secret the stack generates:
 * the functions refuse (403) any request without it, so the API's own address cannot be used around the edge.
 */
export const ORIGIN_VERIFY_HEADER = 'x-mandje-origin-verify';

/**
 * The table that counts mails per delivery key: its key is the SHA-256 (hex) of the delivery key, never the
 * address, and each count is deleted by the table's time to live 24 hours after its newest mail. A mailbox
 * that bounced or complained is an item there too, under another hash of its delivery key and without an
 * expiry: it outlives the person's records. The mailer's pause lives there as well.
 */
export const MAIL_LIMIT_TABLE_KEY = { name: 'deliveryKeyHash', type: 'S' } as const;
export const MAIL_LIMIT_EXPIRY_ATTRIBUTE = 'expiresAt';
