/** What each benchmark returns, and the units and tables `npm run bench` shows its figures in. */
import type { BudgetResult } from './budgets';

export interface BenchSection {
  /** Key in results.json and `--only` name. */
  name: string;
  title: string;
  /** Every figure measured, units in the key names (`lcpMs`, `gzipBytes`). */
  results: Record<string, unknown>;
  table: { head: string[]; rows: (string | number)[][] };
  notes?: string[];
  budgets?: BudgetResult[];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (milliseconds: number) => `${Math.round(milliseconds).toLocaleString('en-GB')} ms`;
/** For latencies of a few milliseconds, which `ms` would round away. */
export const preciseMs = (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;
/** Enough digits to compare runs, none that are noise. */
export const round = (value: number) => Number(value.toFixed(2));

/** The nearest-rank percentile, `p` in (0, 100]; NaN when there are no values. */
export const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1] ?? Number.NaN;
export const median = (values: readonly number[]) => percentile(values, 50);

export function markdownTable({ head, rows }: BenchSection['table']): string {
  const escapeCell = (cell: string | number) => String(cell).replaceAll('|', '\\|');
  return [head, head.map(() => '---'), ...rows]
    .map((row) => `| ${row.map(escapeCell).join(' | ')} |`)
    .join('\n');
}

export function markdownSection(section: BenchSection, level = '###'): string {
  const notes = (section.notes ?? []).map((note) => `\n${note}`).join('\n');
  return `${level} ${section.title}\n\n${markdownTable(section.table)}\n${notes}`;
}
