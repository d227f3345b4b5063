/**
 * Where a signup came from, kept coarse: the landing page's `utm_source`, `utm_medium` and `utm_campaign`,
 * and the host name of the site that linked to it (never a full URL, never a path). Each value is trimmed,
 * lower-cased and must then be 1 to SOURCE_VALUE_MAX_LENGTH characters of a small safe alphabet; anything
 * else is dropped, never stored raw. A signup that came with none of them is `direct`. Shared by the page
 * (which sends them with its script), the API function (which also reads them from a form post's
 * Referer) and the operator's stats. No runtime dependencies.
 */

export const SOURCE_VALUE_MAX_LENGTH = 40;
/** Letters, digits and `.`, `_`, `-`: enough for campaign names and host names, nothing that needs escaping. */
const SAFE_VALUE = /^[a-z0-9][a-z0-9._-]*$/;

/** The UTM parameters read from the landing page's address, by their query name. */
export const UTM_PARAMETERS = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
} as const;

export interface SignupSource {
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  /** The referring site's host name, lower-case, without `www.`. */
  referrer?: string;
}

export const SOURCE_FIELDS = [
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'referrer',
] as const satisfies readonly (keyof SignupSource)[];

/** The label a signup without any source counts under. */
export const DIRECT_SOURCE = 'direct';

/** A value as it may be kept, or undefined when it may not (empty, too long, or outside the alphabet). */
export function sourceValue(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().toLowerCase();
  if (value.length === 0 || value.length > SOURCE_VALUE_MAX_LENGTH) return undefined;
  return SAFE_VALUE.test(value) ? value : undefined;
}

/** The host name of a referring URL, without `www.`, if it is an http(s) URL with a safe host. */
export function referrerHost(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 2_048) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return sourceValue(parsed.hostname.replace(/^www\./, ''));
  } catch {
    return undefined;
  }
}

/** The UTM values of a landing page's query string, each kept only if it may be. */
export function utmSourceOf(search: string): SignupSource {
  const parameters = new URLSearchParams(search);
  const source: SignupSource = {};
  for (const [field, name] of Object.entries(UTM_PARAMETERS) as [keyof typeof UTM_PARAMETERS, string][]) {
    const value = sourceValue(parameters.get(name));
    if (value !== undefined) source[field] = value;
  }
  return source;
}

/** One label for a signup's source: its utm_source, else its referring host, else `direct`. */
export const sourceLabel = (source: SignupSource): string =>
  source.utmSource ?? source.referrer ?? DIRECT_SOURCE;
