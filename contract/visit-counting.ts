import type { Locale } from './locales';

/**
 * How visitors are counted, the same on AWS and on one machine: once per visitor, per UTC day, per language,
 * with no cookie and no address kept. A home page that has loaded sends one small POST (a beacon) to
 * VISIT_PATH; the API function (functions/visit) counts it.
 *
 * The visitor is known for one day only, by SHA-256 of the day's salt, the client's IP address, its user
 * agent and the site, hashed together and never stored apart. The salt is random, made by the first visit
 * of the day, never read on another day, replaced by the next day's first visit and deleted by the table's
 * time to live (the visitor table has no backups): once it is gone, nobody can tell whose a hash was, nor
 * link it to another day's. A hash is kept as a marker until its day ends; only the first marker of a
 * visitor's day adds one to the day's count. The counts are all that stays.
 *
 * A visitor without JavaScript sends no beacon and is not counted; nor is a robot that says it is one.
 */

/** The pages whose loading counts as a visit, each in its language: the two homes. */
export const VISIT_PAGES = { nl: '/', en: '/en/' } as const satisfies Record<Locale, string>;

/** Where a home page's script posts its beacon, with no body: the page's language in the query. */
export const VISIT_PATH = '/api/visit';
export const VISIT_LANGUAGE_PARAMETER = 'lang';

/**
 * Robots that say so: search engines (Googlebot, bingbot), link previews (Twitterbot), crawlers and
 * spiders, Yahoo's Slurp, and automated browsers (Lighthouse, HeadlessChrome): the project's own browser
 * tests are those, and no person browses with them. Matched in the lower-cased user agent.
 */
export const ROBOT_USER_AGENT_TOKENS = [
  'bot',
  'crawler',
  'spider',
  'slurp',
  'lighthouse',
  'headless',
] as const;

export function isRobotUserAgent(userAgent: string | undefined): boolean {
  const lowerCased = (userAgent ?? '').toLowerCase();
  return ROBOT_USER_AGENT_TOKENS.some((token) => lowerCased.includes(token));
}

/**
 * The table that knows today's visitors: the day's salt under VISITOR_SALT_KEY, and one marker per visitor
 * and language (a hash, nothing else). Every item expires with its day (VISITOR_TABLE_EXPIRY_ATTRIBUTE,
 * seconds since 1970). No backups: a salt must not outlive its day.
 */
export const VISITOR_TABLE_KEY = { name: 'id', type: 'S' } as const;
export const VISITOR_TABLE_EXPIRY_ATTRIBUTE = 'expiresAt';
/** The one item that holds the salt, and the day (YYYY-MM-DD, UTC) it is for. */
export const VISITOR_SALT_KEY = 'salt';

/**
 * The day's counts, in the waitlist table beside LEFT_COUNTER_KEY (#contract/waitlist-table): under this
 * prefix and the UTC day, one number attribute per language. Like every counter there, a key with no at
 * sign and no createdAt, so every scan of people leaves it out.
 */
export const VISITS_COUNTER_PREFIX = '#visits#';
export const visitsCounterKey = (day: string) => `${VISITS_COUNTER_PREFIX}${day}`;
