/** Summaries of repeated measurements, shared by the benchmarks so each figure is computed alike. */

/** The nearest-rank percentile (`p` from 0 to 100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** Rounds for results.json: enough digits to compare runs, none that are noise. */
export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Milliseconds with the precision a latency of a few milliseconds needs (table.ts `ms` rounds). */
export const preciseMs = (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;

export const times = (ratio: number) => `${ratio.toFixed(2)}×`;
