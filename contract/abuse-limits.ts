// The limits that keep the waitlist from being turned against anyone's inbox (README "Abuse and limits").
import type { ApiRoute } from './api-routes';
import { LEAVE_PATH } from './leave';
import { VISIT_PATH } from './visit-counting';

// Requested mails per delivery key in a sliding window (not the announcement); past it none is sent.
export const MAILS_PER_MAILBOX = 3;
export const MAIL_LIMIT_WINDOW_HOURS = 24;

/** Per IP address: AWS WAF in production, the runner locally (SIGNUP_RATE_LIMIT overrides; 0 is off). */
export const CLIENT_POSTS_PER_MINUTE = 20;

// No mail; many people behind one mail provider (one-click) or each page load (the beacon). Exact paths.
export const CLIENT_LIMIT_EXEMPT_PATHS = [LEAVE_PATH, VISIT_PATH] as const;

/** A request to `route` (#contract/api-routes): whether it counts towards CLIENT_POSTS_PER_MINUTE. */
export const countsTowardClientLimit = (method: string, route: ApiRoute): boolean =>
  method === 'POST' && !(CLIENT_LIMIT_EXEMPT_PATHS as readonly string[]).includes(route);

/** Holds a secret CloudFront adds, so the API's own address cannot be used around the edge. */
export const ORIGIN_VERIFY_HEADER = 'x-mandje-origin-verify';

// Keyed by delivery keys' hashes: the counts (expiring a day after the newest mail), suppressions, the pause.
export const MAIL_LIMIT_TABLE_KEY = { name: 'deliveryKeyHash', type: 'S' } as const;
export const MAIL_LIMIT_EXPIRY_ATTRIBUTE = 'expiresAt';
