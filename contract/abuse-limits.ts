// The limits that keep the waitlist from being turned against anyone's inbox (README "Abuse and limits").
import { LEAVE_PATH } from './leave';
import { VISIT_PATH } from './visit-counting';

// Requested mails (confirmations, resends, leave links) per delivery key in a sliding window; the
// announcement is not counted. Past it the visitor sees the same answer; the mail is not sent, nor owed.
export const MAILS_PER_MAILBOX = 3;
export const MAIL_LIMIT_WINDOW_HOURS = 24;

/** Per IP address: AWS WAF in production, the runner locally (SIGNUP_RATE_LIMIT overrides; 0 is off). */
export const CLIENT_POSTS_PER_MINUTE = 20;

export const CLIENT_LIMITED_PREFIX = '/api/';

// They send no mail: mail providers post one-click leaves for many people from a few addresses, and the
// visit beacon comes with every page load (it would spend a visitor's signups).
export const CLIENT_LIMIT_EXEMPT_PATHS = [LEAVE_PATH, VISIT_PATH] as const;

/** `path` is decoded, without the query, as AWS WAF matches it. */
export function countsTowardClientLimit(method: string, path: string): boolean {
  return (
    method === 'POST' &&
    path.startsWith(CLIENT_LIMITED_PREFIX) &&
    !CLIENT_LIMIT_EXEMPT_PATHS.some((exempt) => path === exempt || path.startsWith(`${exempt}/`))
  );
}

/** Holds a secret CloudFront adds, so the API's own address cannot be used around the edge. */
export const ORIGIN_VERIFY_HEADER = 'x-mandje-origin-verify';

// Keyed by hashes of delivery keys, never the address: the counts (expiring 24 hours after the newest mail),
// suppressions (no expiry: they outlive the records), and the mailer's pause.
export const MAIL_LIMIT_TABLE_KEY = { name: 'deliveryKeyHash', type: 'S' } as const;
export const MAIL_LIMIT_EXPIRY_ATTRIBUTE = 'expiresAt';
