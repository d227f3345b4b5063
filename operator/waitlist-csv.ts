import type { WaitlistRecord } from '#contract/waitlist-table';

/**
 * The export's columns, in order: every field a person gave or agreed to. The mail bookkeeping (requests,
 * the token's hash) and the deletion time are left out.
 */
export const CSV_COLUMNS = [
  'email',
  'emailAsEntered',
  'language',
  'status',
  'createdAt',
  'consentVersion',
  'confirmedAt',
  'confirmedConsentVersion',
] as const satisfies readonly (keyof WaitlistRecord)[];

/**
 * `bounced` and `complained`: mail to it bounced for good, or its owner marked a mail as spam; either way
 * the person is off the waitlist, and the record stays only as a do-not-mail mark until it expires.
 */
export type RecordStatus = 'confirmed' | 'pending' | 'bounced' | 'complained';

/** A record's status as the export and the count name it. */
export function statusOf(record: { status?: unknown; mailSuppressed?: unknown }): RecordStatus {
  if (record.mailSuppressed === 'complaint') return 'complained';
  if (record.mailSuppressed === 'bounce') return 'bounced';
  return record.status === 'confirmed' ? 'confirmed' : 'pending';
}

/** A spreadsheet reads a cell that starts with one of these as a formula (or the start of one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180), safe to open in a spreadsheet: a value that would start a formula gets a
 * leading single quote, so it is shown as text and never run; a value with a comma, quote or line break
 * is quoted, its quotes doubled.
 */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The waitlist as CSV: a header row, then one row per record, oldest first, each line ended by CRLF. */
export function waitlistCsv(records: readonly Partial<Record<keyof WaitlistRecord, unknown>>[]): string {
  const rows = [...records]
    .sort(
      (a, b) =>
        compare(String(a.createdAt ?? ''), String(b.createdAt ?? '')) ||
        compare(String(a.email ?? ''), String(b.email ?? '')),
    )
    .map((record) =>
      CSV_COLUMNS.map((column) =>
        csvCell(column === 'status' ? statusOf(record) : String(record[column] ?? '')),
      ),
    );
  return [[...CSV_COLUMNS], ...rows].map((cells) => `${cells.join(',')}\r\n`).join('');
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
