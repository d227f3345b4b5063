import { LOCALES, type Locale } from './locales';
import { DIMENSIONS, METRIC_NAMESPACE } from './metrics';

/**
 * What counts as a visit, written once for both places that count them: CloudFront's access logs on AWS
 * (infra/constructs/visit-logs.ts turns this table into a log transformer and a metric filter) and the local
 * runner (local/visit-counter.ts). No cookie, no address: a visit is one request, nothing links two.
 *
 * A visit is a GET of a language home answered with its page: 200, or 304 when a returning visitor's
 * browser revalidates its copy (a page view all the same). Not HEAD, not assets, not other pages, not
 * redirects or errors, and not a client whose user agent says it is a robot.
 */

/** The pages whose views are counted, each in its language. */
export const VISIT_PAGES = { nl: '/', en: '/en/' } as const satisfies Record<Locale, string>;

export const VISIT_METHOD = 'GET';

export const VISIT_STATUSES = [200, 304] as const;

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

export interface RequestOutcome {
  method: string | undefined;
  /** The request's path without its query string, as sent (CloudFront's cs-uri-stem). */
  path: string;
  status: number;
  userAgent: string | undefined;
}

/** The language of the page this request viewed, or undefined when it is not a visit. */
export function visitLanguageOf({ method, path, status, userAgent }: RequestOutcome): Locale | undefined {
  if (method !== VISIT_METHOD) return undefined;
  if (!(VISIT_STATUSES as readonly number[]).includes(status)) return undefined;
  const language = LOCALES.find((locale) => VISIT_PAGES[locale] === path);
  if (language === undefined || isRobotUserAgent(userAgent)) return undefined;
  return language;
}

/**
 * The metric the access logs' filter writes: one per visit, by Language (nl, en), in the region of the
 * distribution's log delivery (us-east-1, where CloudFront delivers from).
 */
export const VISITS_METRIC = {
  namespace: METRIC_NAMESPACE,
  name: 'Visits',
  dimension: DIMENSIONS.language,
  /** CloudFront delivers its logs in us-east-1 only, so the metric is there whatever the stack's region. */
  region: 'us-east-1',
} as const;
