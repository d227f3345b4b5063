import type { BudgetResult } from './budgets';

/**
 * What each benchmark returns: its figures for bench/results.json, and the rows it contributes to the
 * table `npm run bench` prints (and the README's Performance section shows).
 */
export interface BenchSection {
  /** Key in results.json, e.g. `page`, `bundle`, `lambda`, `api`, `soak`. */
  name: string;
  /** Heading of its table. */
  title: string;
  /** Every figure measured, machine-readable, units in the key names (`lcpMs`, `gzipBytes`). */
  results: Record<string, unknown>;
  table: { head: string[]; rows: (string | number)[][] };
  /** One-line remarks printed under the table (what a ratio means, what was compared). */
  notes?: string[];
  /** Budgets this section's figures are held to (the page and bundle budgets are checked in run.ts). */
  budgets?: BudgetResult[];
}
