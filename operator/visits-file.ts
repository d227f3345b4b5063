import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isLocale, type Locale } from '#contract/locales';
import { VISITS_FILE } from '../local/visit-counter';
import { WaitlistToolError } from './waitlist-tool-error';

/**
 * The visits the local runner counted, as `stats` reads them: `<dataDir>/visits.json`, written by
 * local/visit-counter.ts as `{ "days": { "YYYY-MM-DD": { "nl": <count>, "en": <count> } } }` (UTC days).
 * Counts only: no address, no IP, nothing about a visitor.
 */

/** Visits per UTC day (YYYY-MM-DD) and language, locally from the file, on AWS from CloudWatch. */
export type VisitsByDay = Record<string, Partial<Record<Locale, number>>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * The counts in a visits file's text. Days, languages and counts it does not know (a future language, a
 * hand edit) are left out rather than guessed at; text that is not such a file at all is an error.
 */
export function parseVisitsFile(text: string): VisitsByDay | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const days = (parsed as { days?: unknown } | null)?.days;
  if (typeof days !== 'object' || days === null || Array.isArray(days)) return undefined;
  const visits: VisitsByDay = {};
  for (const [day, counts] of Object.entries(days)) {
    if (!DAY.test(day) || typeof counts !== 'object' || counts === null) continue;
    const kept = Object.entries(counts).filter(([language, count]) => isLocale(language) && isCount(count));
    if (kept.length > 0) visits[day] = Object.fromEntries(kept);
  }
  return visits;
}

/** The visits counted in `dataDir`; none when the runner has not counted any yet (no file). */
export async function readVisitsFile(dataDir: string): Promise<VisitsByDay> {
  const path = join(dataDir, VISITS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const visits = parseVisitsFile(text);
  if (visits === undefined) throw new WaitlistToolError(`${path} is not a visits file ({ "days": … })`);
  return visits;
}
