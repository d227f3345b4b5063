import { isLocale, LOCALES, type Locale } from '#contract/locales';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { type RecordStatus, statusOf } from './waitlist-csv';

/** What `stats` reads of a record, and all it reads: no address. */
export type SignupFacts = Partial<Record<'createdAt' | 'language' | 'status' | 'mailSuppressed', unknown>>;

/** The attributes behind SignupFacts, for the scan's projection. */
export const SIGNUP_FACT_ATTRIBUTES = [
  'createdAt',
  'language',
  'status',
  'mailSuppressed',
] as const satisfies readonly (keyof SignupFacts & keyof WaitlistRecord)[];

export const DEFAULT_STATS_DAYS = 30;
/** A leap year: the longest a record is kept is RETENTION_DAYS after joining. */
export const MAX_STATS_DAYS = 366;

export interface WaitlistStats {
  /** Signups per UTC day (YYYY-MM-DD), oldest first, ending today; days without any included. */
  perDay: { day: string; signups: number }[];
  /** The whole waitlist by language; `other` counts records in a language LOCALES does not have. */
  byLanguage: Record<Locale | 'other', number>;
  /** The whole waitlist by status, as `count` tells them apart. */
  byStatus: Record<RecordStatus, number>;
  total: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an ISO 8601 time, or undefined when it is not one. */
function utcDay(time: unknown): string | undefined {
  if (typeof time !== 'string') return undefined;
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

/**
 * Counts the waitlist: signups per UTC day over the `days` days that end with `now`'s day, and the whole
 * list by language and by status. A record made outside those days, or without a readable time, still
 * counts in the totals.
 */
export function waitlistStats(
  records: Iterable<SignupFacts>,
  { now, days }: { now: Date; days: number },
): WaitlistStats {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const perDay = Array.from({ length: days }, (_, index) => ({
    day: new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
    signups: 0,
  }));
  const dayOf = new Map(perDay.map((entry) => [entry.day, entry]));
  const byLanguage = Object.fromEntries([...LOCALES, 'other'].map((language) => [language, 0])) as Record<
    Locale | 'other',
    number
  >;
  const byStatus: Record<RecordStatus, number> = {
    confirmed: 0,
    pending: 0,
    unconfirmed: 0,
    bounced: 0,
    complained: 0,
  };
  let total = 0;
  for (const record of records) {
    total++;
    byLanguage[isLocale(record.language) ? record.language : 'other']++;
    byStatus[statusOf(record)]++;
    const day = dayOf.get(utcDay(record.createdAt) ?? '');
    if (day) day.signups++;
  }
  return { perDay, byLanguage, byStatus, total };
}

/** The longest bar, in characters: with the date and a count of up to 16 digits a line stays within 80. */
export const BAR_WIDTH = 50;
const FULL_BLOCK = '█';
/** One to seven eighths of a block, for a bar's last character. */
const PARTIAL_BLOCKS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * A bar of block characters for `count`, the busiest day's `busiest` taking the full width, measured in
 * eighths of a character; a day with any signup shows at least a sliver, so it never looks like none.
 */
export function signupBar(count: number, busiest: number, width = BAR_WIDTH): string {
  if (count <= 0 || busiest <= 0) return '';
  const eighths = Math.max(1, Math.round((count / busiest) * width * 8));
  return FULL_BLOCK.repeat(Math.floor(eighths / 8)) + PARTIAL_BLOCKS[eighths % 8];
}

/** Rows shown only when there is something to count: a language or a status the list should not have. */
const ONLY_IF_ANY = new Set(['other', 'unconfirmed', 'bounced', 'complained']);

/** Label-and-number rows, as `count` prints them. */
const rows = (entries: [string, number][]) =>
  entries
    .filter(([label, count]) => count > 0 || !ONLY_IF_ANY.has(label))
    .map(([label, count]) => `${label.padEnd(12)}${count}\n`)
    .join('');

/**
 * What `stats` prints: a chart of the signups per day (date, bar, count), then the whole list by
 * language and by status, and its total. `other`, `unconfirmed`, `bounced` and `complained` only appear
 * when there are any.
 */
export function waitlistStatsReport({ perDay, byLanguage, byStatus, total }: WaitlistStats): string {
  const busiest = Math.max(0, ...perDay.map(({ signups }) => signups));
  const countWidth = String(busiest).length;
  const inWindow = perDay.reduce((sum, { signups }) => sum + signups, 0);
  const chart = perDay
    .map(
      ({ day, signups }) =>
        `${day}  ${signupBar(signups, busiest).padEnd(BAR_WIDTH)}  ${String(signups).padStart(countWidth)}\n`,
    )
    .join('');
  return [
    `Signups per day (UTC), the last ${perDay.length} day${perDay.length === 1 ? '' : 's'}: ${inWindow}\n${chart}`,
    `By language\n${rows(Object.entries(byLanguage))}`,
    `By status\n${rows(Object.entries(byStatus))}`,
    rows([['total', total]]),
  ].join('\n');
}
