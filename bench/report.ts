/** What each benchmark returns, and the units and tables `npm run bench` shows its figures in. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { BudgetResult } from './budgets';

export interface BenchSection {
  /** Key in results.json and `--only` name. */
  name: string;
  title: string;
  /** Every figure measured, units in the key names (`lcpMs`, `gzipBytes`). */
  results: Record<string, unknown>;
  table: { head: string[]; rows: (string | number)[][] };
  notes?: string[];
  /** The budgets its figures are held to, evaluated. */
  budgets?: BudgetResult[];
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (milliseconds: number): string => `${Math.round(milliseconds).toLocaleString('en-GB')} ms`;
/** For latencies of a few milliseconds, which `ms` would round away. */
export const preciseMs = (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;
/** Enough digits to compare runs, none that are noise. */
export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** The nearest-rank percentile (`p` from 0 to 100); NaN when there are no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}
export const median = (values: readonly number[]) => percentile(values, 50);

export function markdownTable({ head, rows }: BenchSection['table']): string {
  const escapeCell = (cell: string | number) => String(cell).replaceAll('|', '\\|');
  const lines = [head, head.map(() => '---'), ...rows].map((row) => `| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

export function markdownSection(section: BenchSection, level = '###'): string {
  const notes = (section.notes ?? []).map((note) => `\n${note}`).join('\n');
  return `${level} ${section.title}\n\n${markdownTable(section.table)}\n${notes}`;
}

/**
 * Replaces what the README holds between `<!-- <name> figures: written by npm run bench -->` and
 * `<!-- end of <name> figures -->` (added the first time). False when the README has no start marker.
 */
export function writeReadmeFigures(readmeFile: string, name: string, markdown: string): boolean {
  const start = `<!-- ${name} figures: written by npm run bench -->`;
  const end = `<!-- end of ${name} figures -->`;
  const readme = readFileSync(readmeFile, 'utf8');
  const from = readme.indexOf(start);
  if (from === -1) return false;
  const after = from + start.length;
  const to = readme.indexOf(end, after);
  const rest = to === -1 ? readme.slice(after) : readme.slice(to + end.length);
  writeFileSync(readmeFile, `${readme.slice(0, after)}\n\n${markdown.trim()}\n\n${end}${rest}`);
  return true;
}
