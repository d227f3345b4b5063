import type { Formatters } from '@/i18n/format';

/** SPEC's savings claims: about €20–30 a week, more than €1,000 a year. */
export const SAVINGS_CLAIMS = { weeklyFrom: 20_00, weeklyTo: 30_00, yearlyAbove: 1_000_00 } as const;

/** The values of the copy's `{weekly}` and `{yearly}`. */
export function savingsClaims(format: Formatters): { weekly: string; yearly: string } {
  return {
    weekly: format.wholeEuroRange(SAVINGS_CLAIMS.weeklyFrom, SAVINGS_CLAIMS.weeklyTo),
    yearly: format.wholeEuros(SAVINGS_CLAIMS.yearlyAbove),
  };
}
