// The limits that keep the waitlist from being turned against anyone's inbox (README "Abuse and limits").
import type { ApiRoute } from './api-routes';
import { LEAVE_PATH } from './leave';
import { VISIT_PATH } from './visit-counting';

// Requested mails (confirmations, resends, leave links) per delivery key in a sliding window; the
// announcement is not counted. Past it the visitor sees the same answer; the mail is not sent, nor owed.
export const MAILS_PER_MAILBOX = 3;
export const MAIL_LIMIT_WINDOW_HOURS = 24;

/** Per IP address: AWS WAF in production, the runner locally (SIGNUP_RATE_LIMIT overrides; 0 is off). */
export const CLIENT_POSTS_PER_MINUTE = 20;

// They send no mail, and come from mail providers for many people (one-click) or with every page load (the
// beacon). Exempt as these exact paths only: any other spelling is a 404 (#contract/api-routes).
export const CLIENT_LIMIT_EXEMPT_PATHS = [LEAVE_PATH, VISIT_PATH] as const;

/** A request to `route` (#contract/api-routes): whether it counts towards CLIENT_POSTS_PER_MINUTE. */
export const countsTowardClientLimit = (method: string, route: ApiRoute): boolean =>
  method === 'POST' && !(CLIENT_LIMIT_EXEMPT_PATHS as readonly string[]).includes(route);

/** Holds a secret CloudFront adds, so the API's own address cannot be used around the edge. */
export const ORIGIN_VERIFY_HEADER = 'x-mandje-origin-verify';

// Keyed by hashes of delivery keys, never the address: the counts (expiring 24 hours after the newest mail),
// suppressions (no expiry: they outlive the records), and the mailer's pause.
export const MAIL_LIMIT_TABLE_KEY = { name: 'deliveryKeyHash', type: 'S' } as const;
export const MAIL_LIMIT_EXPIRY_ATTRIBUTE = 'expiresAt';
