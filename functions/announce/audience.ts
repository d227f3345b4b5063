import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { LOCALES, type Locale } from '#contract/locales';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { mailboxSuppression } from '../mailer/mail-limit';
import type { WaitlistStore } from '../store/store-client';

/** Why a record gets no announcement. `unknown`: a send left unknown by a crash or a lost answer. */
export const SKIP_REASONS = ['pending', 'bounced', 'complained', 'already', 'unknown'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Undefined for an item that is no person. `resendUnknownBefore`: sends left unknown before it are owed again. */
export function audienceOf(
  record: Partial<WaitlistRecord>,
  id: string,
  resendUnknownBefore?: string,
): { send: Locale } | { skip: SkipReason } | undefined {
  // Counters and announcement state live under keys with no at sign, and have no createdAt.
  if (!record.email?.includes('@') || record.createdAt === undefined) return undefined;
  if (record.mailSuppressed !== undefined)
    return { skip: record.mailSuppressed === 'complaint' ? 'complained' : 'bounced' };
  if (new Set(record.announcements ?? []).has(id)) return { skip: 'already' };
  if (record.announcing === id && !(resendUnknownBefore && (record.announcingAt ?? '') < resendUnknownBefore))
    return { skip: 'unknown' };
  if (record.status !== 'confirmed') return { skip: 'pending' };
  return { send: record.language === 'en' ? 'en' : 'nl' };
}

export const emptyCount = () => ({
  send: Object.fromEntries(LOCALES.map((language) => [language, 0])) as Record<Locale, number>,
  skipped: Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>,
});
export type AudienceCount = ReturnType<typeof emptyCount>;

export const countedTotal = (count: Record<string, number>) =>
  Object.values(count).reduce((sum, value) => sum + value, 0);

/**
 * Who is owed the announcement, a page of 100 at a time (memory stays flat however long the list), by the
 * one decision the dry run counts and the send queues: audienceOf, then the mailbox's suppression in the
 * mail limit's table (another spelling bounced or complained), which the mailer would find.
 */
export async function* audiencePages(
  store: WaitlistStore,
  limits: WaitlistStore,
  id: string,
  { resendUnknownBefore }: { resendUnknownBefore?: string } = {},
) {
  for await (const page of paginateScan(
    { client: store.client, pageSize: 100 },
    {
      TableName: store.tableName,
      ProjectionExpression:
        'email, #status, mailSuppressed, announcements, announcing, announcingAt, #language, createdAt',
      ExpressionAttributeNames: { '#status': 'status', '#language': 'language' },
    },
  )) {
    const count = emptyCount();
    const owed: { key: string; language: Locale }[] = [];
    for (const item of page.Items ?? []) {
      const audience = audienceOf(item as Partial<WaitlistRecord>, id, resendUnknownBefore);
      if (audience === undefined) continue;
      if ('skip' in audience) count.skipped[audience.skip]++;
      else owed.push({ key: String(item.email), language: audience.send });
    }
    const suppressions = await Promise.all(owed.map(({ key }) => mailboxSuppression(limits, key)));
    const recipients = owed.filter(({ language }, index) => {
      const reason = suppressions[index]?.reason;
      if (reason) count.skipped[reason === 'complaint' ? 'complained' : 'bounced']++;
      else count.send[language]++;
      return !reason;
    });
    yield { recipients, count };
  }
}

export function addCounts(total: AudienceCount, page: AudienceCount): void {
  for (const language of LOCALES) total.send[language] += page.send[language];
  for (const reason of SKIP_REASONS) total.skipped[reason] += page.skipped[reason];
}

export async function countAudience(store: WaitlistStore, limits: WaitlistStore, id: string) {
  const total = emptyCount();
  for await (const page of audiencePages(store, limits, id)) addCounts(total, page.count);
  return total;
}
