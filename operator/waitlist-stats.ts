import { isLocale, type Locale } from '#contract/locales';
import { type SignupSource, sourceLabel, sourceValue } from '#contract/signup-source';
import { SECONDS_PER_DAY } from '#contract/time';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { type RecordStatus, statusOf } from './waitlist-csv';

/** What `stats` reads of a record, and all it reads: no address. */
export const SIGNUP_FACT_ATTRIBUTES = [
  'createdAt',
  'confirmedAt',
  'language',
  'status',
  'mailSuppressed',
  'source',
] as const satisfies readonly (keyof WaitlistRecord)[];
export type SignupFacts = Partial<Record<(typeof SIGNUP_FACT_ATTRIBUTES)[number], unknown>>;

/** Visitors counted per UTC day (YYYY-MM-DD) and language (#contract/visit-counting). */
export type VisitsByDay = Record<string, Partial<Record<Locale, number>>>;

export const DEFAULT_STATS_DAYS = 30;
/** A leap year: the longest a record is kept is RETENTION_DAYS after joining. */
export const MAX_STATS_DAYS = 366;
/** With the date and the funnel's columns (counts of up to seven digits) a line stays within 80. */
const BAR_WIDTH = 20;

const utcDay = (time: unknown) => {
  const date = new Date(typeof time === 'string' ? time : Number.NaN);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
};

/** The `days` UTC days (YYYY-MM-DD) that end with `now`'s day, oldest first. */
export const statsDays = (now: Date, days: number): string[] =>
  Array.from({ length: days }, (_, back) =>
    new Date(now.getTime() - (days - 1 - back) * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10),
  );

/** The funnel per UTC day (signups by createdAt, confirmed by confirmedAt), and the whole list's totals. */
export function waitlistStats(
  records: Iterable<SignupFacts>,
  { now, days, visits = {} }: { now: Date; days: number; visits?: VisitsByDay },
) {
  const perDay = statsDays(now, days).map((day) => ({
    day,
    visits: Object.values(visits[day] ?? {}).reduce((sum, count) => sum + count, 0),
    signups: 0,
    confirmed: 0,
  }));
  const dayOf = new Map(perDay.map((entry) => [entry.day, entry]));
  const byLanguage: Record<Locale | 'other', number> = { nl: 0, en: 0, other: 0 };
  const sources = new Map<string, number>();
  const byStatus: Record<RecordStatus, number> = { confirmed: 0, pending: 0, bounced: 0, complained: 0 };
  let total = 0;
  for (const record of records) {
    total++;
    byLanguage[isLocale(record.language) ? record.language : 'other']++;
    byStatus[statusOf(record)]++;
    // Checked again: the terminal shows nothing the API would not keep.
    const { utmSource, referrer } = Object(record.source) as Record<keyof SignupSource, unknown>;
    const label = sourceLabel({ utmSource: sourceValue(utmSource), referrer: sourceValue(referrer) });
    sources.set(label, (sources.get(label) ?? 0) + 1);
    const made = dayOf.get(utcDay(record.createdAt));
    if (made) made.signups++;
    const confirmed = dayOf.get(utcDay(record.confirmedAt));
    if (confirmed) confirmed.confirmed++;
  }
  const bySource = [...sources].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b));
  return { perDay, byLanguage, bySource, byStatus, total };
}

/** In eighths of a character; a day with any signup shows at least a sliver, so it never looks like none. */
function signupBar(count: number, busiest: number): string {
  if (count <= 0) return '';
  const eighths = Math.max(1, Math.round((count / busiest) * BAR_WIDTH * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8];
}

/** More signups than visits happens (visits counted since later, a form posted from elsewhere): kept short. */
const rate = (part: number, whole: number) =>
  whole <= 0 ? '-' : part >= whole * 10 ? '>999%' : `${((part / whole) * 100).toFixed(1)}%`;

type Funnel = Record<'visits' | 'signups' | 'confirmed', number>;
const funnelColumns = ({ visits, signups, confirmed }: Funnel) =>
  [visits, signups, confirmed, rate(signups, visits), rate(confirmed, signups)]
    .map((value, index) => String(value).padStart([8, 9, 11, 9, 9][index] ?? 0))
    .join('');

/** A language or a status (do-not-mail marks) the list should not have: shown only when there are any. */
const ONLY_IF_ANY = new Set(['other', 'bounced', 'complained']);

/** Label-and-number rows; the column widens to keep a space after a long label. */
export const labelRows = (entries: [string, number][]) => {
  const shown = entries.filter(([label, count]) => count > 0 || !ONLY_IF_ANY.has(label));
  const width = Math.max(12, ...shown.map(([label]) => label.length + 1));
  return shown.map(([label, count]) => `${label.padEnd(width)}${count}\n`).join('');
};

export function waitlistStatsReport(stats: ReturnType<typeof waitlistStats>) {
  const { perDay } = stats;
  const busiest = Math.max(0, ...perDay.map(({ signups }) => signups));
  const days = `${perDay.length} day${perDay.length === 1 ? '' : 's'}`;
  const sum = (field: keyof Funnel) => perDay.reduce((result, entry) => result + entry[field], 0);
  const chart = perDay.map(
    (row) => `${row.day}  ${signupBar(row.signups, busiest).padEnd(BAR_WIDTH)}${funnelColumns(row)}\n`,
  );
  const totals = { visits: sum('visits'), signups: sum('signups'), confirmed: sum('confirmed') };
  return [
    `Visits → signups → confirmed per day (UTC), the last ${days}\n`,
    `${' '.repeat(12 + BAR_WIDTH)}  visits  signups  confirmed  sign-up  confirm\n${chart.join('')}`,
    `${`last ${days}`.padEnd(12 + BAR_WIDTH)}${funnelColumns(totals)}\n`,
    'sign-up: signups per visit; confirm: confirmed per signup\n',
    `\nBy language\n${labelRows(Object.entries(stats.byLanguage))}`,
    `\nBy source\n${labelRows(stats.bySource)}`,
    `\nBy status\n${labelRows(Object.entries(stats.byStatus))}`,
    `\n${labelRows([['total', stats.total]])}`,
  ].join('');
}
