// Where a signup came from: UTM values and the referring host, each of a small safe alphabet or dropped.

export const SOURCE_VALUE_MAX_LENGTH = 40;
const SAFE_VALUE = /^[a-z0-9][a-z0-9._-]*$/;

/** `referrer` is a host without `www.`. */
export const SOURCE_FIELDS = ['utmSource', 'utmMedium', 'utmCampaign', 'referrer'] as const;
export type SignupSource = Partial<Record<(typeof SOURCE_FIELDS)[number], string>>;

export function sourceValue(raw: unknown): string | undefined {
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return value.length <= SOURCE_VALUE_MAX_LENGTH && SAFE_VALUE.test(value) ? value : undefined;
}

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

export function utmSourceOf(search: string): SignupSource {
  const parameters = new URLSearchParams(search);
  const source: SignupSource = {};
  for (const field of ['utmSource', 'utmMedium', 'utmCampaign'] as const) {
    const value = sourceValue(parameters.get(field.replace('utm', 'utm_').toLowerCase()));
    if (value !== undefined) source[field] = value;
  }
  return source;
}

export const sourceLabel = (source: SignupSource): string => source.utmSource ?? source.referrer ?? 'direct';
