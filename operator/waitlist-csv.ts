import type { WaitlistRecord } from '#contract/waitlist-table';

/** Every field a person gave or agreed to; not the mail bookkeeping or the deletion time. */
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

/** `bounced` and `complained`: off the list, the record kept as a do-not-mail mark until it expires. */
export type RecordStatus = 'confirmed' | 'pending' | 'bounced' | 'complained';

export function statusOf(record: { status?: unknown; mailSuppressed?: unknown }): RecordStatus {
  if (record.mailSuppressed === 'complaint') return 'complained';
  if (record.mailSuppressed === 'bounce') return 'bounced';
  return record.status === 'confirmed' ? 'confirmed' : 'pending';
}

/** One CSV field (RFC 4180); a leading quote keeps a spreadsheet from running what looks like a formula. */
export function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
