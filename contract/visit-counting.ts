import type { Locale } from './locales';

// Once per visitor, UTC day and language, no cookie: SHA-256 of the day's salt, IP address, user agent and
// site. The salt dies with its day (no backups), and then nobody can tell whose a hash was.
export const VISIT_PAGES = { nl: '/', en: '/en/' } as const satisfies Record<Locale, string>;

export const VISIT_PATH = '/api/visit';
export const VISIT_LANGUAGE_PARAMETER = 'lang';

/** Robots that say so, including automated browsers (the project's own browser tests). */
export const isRobotUserAgent = (userAgent: string | undefined) =>
  /bot|crawler|spider|slurp|lighthouse|headless/i.test(userAgent ?? '');

/** The day's salt and one marker per visitor and language; every item expires with its day. */
export const VISITOR_TABLE_KEY = { name: 'id', type: 'S' } as const;
export const VISITOR_TABLE_EXPIRY_ATTRIBUTE = 'expiresAt';
export const VISITOR_SALT_KEY = 'salt';

/** In the waitlist table beside LEFT_COUNTER_KEY, one attribute per language. */
export const visitsCounterKey = (day: string) => `#visits#${day}`;
