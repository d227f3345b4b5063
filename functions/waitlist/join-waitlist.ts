import { randomUUID } from 'node:crypto';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import * as table from '#contract/waitlist-table';
import { mailboxHashOf } from '../store/mailbox';
import { putIf, updateIf, type WaitlistStore } from '../store/store-client';

/** Once per canonical key; the record starts pending, asking the mailer for a confirmation mail. */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: Pick<table.WaitlistRecord, 'language' | 'source'> & { email: string; key: string },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'joined' | 'already_registered'> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const expiresAt = nowSeconds + table.PENDING_DAYS * SECONDS_PER_DAY;
  const Item: table.WaitlistRecord = {
    email: entry.key,
    mailbox: mailboxHashOf(entry.key),
    emailAsEntered: entry.email,
    language: entry.language,
    createdAt: now.toISOString(),
    consentVersion: SIGNUP_NOTE_VERSION,
    ...(entry.source ? { source: entry.source } : {}),
    status: 'pending',
    expiresAt,
    mailRequestId: randomUUID(),
    mailRequestedAt: now.toISOString(),
    mailsRequested: 1,
  };
  // An expired pending record counts as deleted (time to live takes days), unless a do-not-mail mark.
  const put = {
    Item,
    ConditionExpression:
      'attribute_not_exists(email) OR (#status = :pending AND expiresAt < :now AND attribute_not_exists(mailSuppressed))',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending', ':now': nowSeconds },
  };
  if (await putIf(store, put, abortSignal)) return 'joined';

  // Signed up again: the mail once more, within the resend limits. Language and source stay the first
  // signup's: whoever signs up again, maybe not the owner, changes nothing the owner chose.
  await updateIf(
    store,
    entry.key,
    {
      UpdateExpression:
        'SET mailRequestId = :id, mailRequestedAt = :now, mailsRequested = mailsRequested + :one, expiresAt = :expiresAt',
      ConditionExpression:
        '#status = :pending AND mailRequestedAt <= :cutoff AND mailsRequested < :max AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':id': randomUUID(),
        ':now': now.toISOString(),
        ':one': 1,
        ':expiresAt': expiresAt,
        ':pending': 'pending',
        ':cutoff': new Date(now.getTime() - table.MAIL_RESEND_INTERVAL_MINUTES * 60_000).toISOString(),
        ':max': table.MAX_CONFIRMATION_MAILS,
      },
    },
    abortSignal,
  );
  return 'already_registered';
}
