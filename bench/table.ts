/**
 * How `npm run bench` shows its figures: one Markdown table per section (printed, and on
 * docs/performance.md), and the units every section formats its numbers in.
 */
import type { BenchSection } from './report';

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (milliseconds: number): string => `${Math.round(milliseconds).toLocaleString('en-GB')} ms`;

export function markdownTable({ head, rows }: BenchSection['table']): string {
  const escapeCell = (cell: string | number) => String(cell).replaceAll('|', '\\|');
  const lines = [head, head.map(() => '---'), ...rows].map((row) => `| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

export function markdownSection(section: BenchSection): string {
  const notes = (section.notes ?? []).map((note) => `\n${note}`).join('\n');
  return `### ${section.title}\n\n${markdownTable(section.table)}\n${notes}`;
}
