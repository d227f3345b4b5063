import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import {
  MAIL_RESEND_INTERVAL_MINUTES,
  MAX_CONFIRMATION_MAILS,
  PENDING_DAYS,
  type WaitlistRecord,
} from '#contract/waitlist-table';
import { mailboxHashOf } from '../store/mailbox';
import { unlessConditionFails, type WaitlistStore } from '../store/store-client';

const secondsAfter = (now: Date, days: number) => Math.floor(now.getTime() / 1000) + days * SECONDS_PER_DAY;

/** Once per canonical key; the record starts pending, asking the mailer for a confirmation mail. */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: Pick<WaitlistRecord, 'language' | 'source'> & { email: string; key: string },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'joined' | 'already_registered'> {
  const record: WaitlistRecord = {
    email: entry.key,
    mailbox: mailboxHashOf(entry.key),
    emailAsEntered: entry.email,
    language: entry.language,
    createdAt: now.toISOString(),
    consentVersion: SIGNUP_NOTE_VERSION,
    ...(entry.source ? { source: entry.source } : {}),
    status: 'pending',
    expiresAt: secondsAfter(now, PENDING_DAYS),
    mailRequestId: randomUUID(),
    mailRequestedAt: now.toISOString(),
    mailsRequested: 1,
  };
  const put = store.client.send(
    new PutCommand({
      TableName: store.tableName,
      Item: record,
      // An expired pending record is as good as deleted (time to live takes days), unless it is a
      // do-not-mail mark.
      ConditionExpression:
        'attribute_not_exists(email) OR (#status = :pending AND expiresAt < :now AND attribute_not_exists(mailSuppressed))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':now': Math.floor(now.getTime() / 1000) },
    }),
    { abortSignal },
  );
  if (await unlessConditionFails(put)) return 'joined';

  // Signed up again: the mail once more, within the resend limits. Language and source stay the first
  // signup's: whoever signs up again, maybe not the owner, changes nothing the owner chose.
  const askAgain = store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: entry.key },
      UpdateExpression:
        'SET mailRequestId = :id, mailRequestedAt = :now, mailsRequested = mailsRequested + :one, expiresAt = :expiresAt',
      ConditionExpression:
        '#status = :pending AND mailRequestedAt <= :cutoff AND mailsRequested < :max AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':id': randomUUID(),
        ':now': now.toISOString(),
        ':one': 1,
        ':expiresAt': secondsAfter(now, PENDING_DAYS),
        ':pending': 'pending',
        ':cutoff': new Date(now.getTime() - MAIL_RESEND_INTERVAL_MINUTES * 60_000).toISOString(),
        ':max': MAX_CONFIRMATION_MAILS,
      },
    }),
    { abortSignal },
  );
  await unlessConditionFails(askAgain);
  return 'already_registered';
}
