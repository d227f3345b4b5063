import { readFileSync, writeFileSync } from 'node:fs';
import type { BudgetResult } from './budgets';

/**
 * What each benchmark returns: its figures for bench/results.json, and the table `npm run bench` prints
 * when it has measured them. docs/performance.md is written from results.json (performance-page.ts).
 */
export interface BenchSection {
  /** Key in results.json: `page`, `bundle`, `bundleModules` or `lambda`. */
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

/**
 * Writes `markdown` into the README after the line `<!-- <name> figures: written by npm run bench -->`
 * (today only `headline`),
 * up to `<!-- end of <name> figures -->` (added the first time), replacing what was there: the figures
 * come from the run that measured them, never pasted. False when the README has no such line.
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
