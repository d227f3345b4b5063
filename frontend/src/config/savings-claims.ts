import type { Formatters } from '@/i18n/format';

/** SPEC's claims, the copy's `{weekly}` and `{yearly}`: about €20–30 a week, over €1,000 a year. */
export const savingsClaims = (format: Formatters) => ({
  weekly: format.wholeEuroRange(20_00, 30_00),
  yearly: format.wholeEuros(1_000_00),
});
