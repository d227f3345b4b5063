import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SignupSource } from '#contract/signup-source';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import {
  MAIL_RESEND_INTERVAL_MINUTES,
  MAX_CONFIRMATION_MAILS,
  PENDING_DAYS,
  type WaitlistRecord,
} from '#contract/waitlist-table';
import { mailboxHashOf } from '../store/mailbox';
import type { WaitlistStore } from '../store/store-client';

export type { WaitlistStore };

export type JoinOutcome = 'joined' | 'already_registered';

/** Who asks to join: the address as entered, its canonical key, their language and where they came from. */
export interface JoinEntry {
  email: string;
  key: string;
  language: WaitlistRecord['language'];
  /** Only values sourceValue keeps (#contract/signup-source); absent when there are none. */
  source?: SignupSource;
}

export interface JoinOptions {
  now?: Date;
  abortSignal?: AbortSignal;
}

const secondsAfter = (now: Date, days: number) => Math.floor(now.getTime() / 1000) + days * SECONDS_PER_DAY;

/** A new record: pending, with a confirmation mail asked for. */
function newRecord(entry: JoinEntry, now: Date): WaitlistRecord {
  return {
    email: entry.key,
    // What ties this spelling to the others of its mailbox: a one-click leave removes them all.
    mailbox: mailboxHashOf(entry.key),
    emailAsEntered: entry.email,
    language: entry.language,
    createdAt: now.toISOString(),
    consentVersion: SIGNUP_NOTE_VERSION,
    ...(entry.source ? { source: entry.source } : {}),
    status: 'pending',
    // Deleted by the table's time to live unless it is confirmed first.
    expiresAt: secondsAfter(now, PENDING_DAYS),
    mailRequestId: randomUUID(),
    mailRequestedAt: now.toISOString(),
    mailsRequested: 1,
  };
}

/**
 * Puts a person on the waitlist, once: the record's key is the address's canonical identity (see
 * #contract/email-address), and the conditional put makes a second request for the same mailbox, however
 * it is typed, a no-op that reports "already registered". The record starts pending, and the mailer (functions/mailer) sends the mail it asks for; a second signup of a pending
 * address asks for the mail again (see askForMailAgain), and keeps the first signup's source. Any other
 * failure is thrown.
 */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: JoinEntry,
  { now = new Date(), abortSignal }: JoinOptions = {},
): Promise<JoinOutcome> {
  try {
    await store.client.send(
      new PutCommand({
        TableName: store.tableName,
        Item: newRecord(entry, now),
        // A pending record past its time is as good as deleted: DynamoDB's time to live removes it only
        // within a few days, and meanwhile its owner, signing up again, should start afresh.
        // A mailbox that bounced or complained keeps its mark until it expires: nobody can start it afresh.
        ConditionExpression:
          'attribute_not_exists(email) OR (#status = :pending AND expiresAt < :now AND attribute_not_exists(mailSuppressed))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':now': Math.floor(now.getTime() / 1000) },
      }),
      { abortSignal },
    );
    return 'joined';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  await askForMailAgain(store, entry, { now, abortSignal });
  return 'already_registered';
}

/**
 * A pending address signed up again: ask for the confirmation mail once more (the pending record kept
 * PENDING_DAYS from now), at most once per MAIL_RESEND_INTERVAL_MINUTES and MAX_CONFIRMATION_MAILS times in
 * all. The language stays the first signup's: whoever signs an address up again, maybe not its owner,
 * changes nothing the owner chose, and the links already sent keep working (see the mailer). A confirmed
 * address, one whose mail bounced or was marked as spam, or one asked for too recently or too often, is
 * left as it is: the condition fails, and that is not an error.
 */
async function askForMailAgain(
  store: WaitlistStore,
  entry: { key: string },
  { now, abortSignal }: { now: Date; abortSignal?: AbortSignal },
): Promise<void> {
  const cutoff = new Date(now.getTime() - MAIL_RESEND_INTERVAL_MINUTES * 60 * 1000).toISOString();
  try {
    await store.client.send(
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
          ':cutoff': cutoff,
          ':max': MAX_CONFIRMATION_MAILS,
        },
      }),
      { abortSignal },
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
