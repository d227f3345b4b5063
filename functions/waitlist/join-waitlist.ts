import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { RETENTION_DAYS, type WaitlistRecord } from '#contract/waitlist-table';

const SECONDS_PER_DAY = 24 * 60 * 60;

export interface WaitlistStore {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export type JoinOutcome = 'joined' | 'already_registered';

/**
 * Puts a person on the waitlist, once: the record's key is the address's canonical identity (see
 * #contract/email-address), and the conditional put makes a second request for the same mailbox, however
 * it is typed, a no-op that reports "already registered". Any other failure is thrown.
 */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: { email: string; key: string; language: WaitlistRecord['language'] },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<JoinOutcome> {
  const record: WaitlistRecord = {
    email: entry.key,
    emailAsEntered: entry.email,
    language: entry.language,
    createdAt: now.toISOString(),
    consentVersion: SIGNUP_NOTE_VERSION,
    expiresAt: Math.floor(now.getTime() / 1000) + RETENTION_DAYS * SECONDS_PER_DAY,
  };
  try {
    await store.client.send(
      new PutCommand({
        TableName: store.tableName,
        Item: record,
        ConditionExpression: 'attribute_not_exists(email)',
      }),
      { abortSignal },
    );
    return 'joined';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'already_registered';
    throw error;
  }
}
