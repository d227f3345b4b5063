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
 * Puts a person on the waitlist, once: the conditional put makes a second request for the same address
 * (in any case or spacing) a no-op that reports "already registered". Any other failure is thrown.
 */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: { email: string; language: WaitlistRecord['language'] },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<JoinOutcome> {
  const record: WaitlistRecord = {
    email: entry.email.toLowerCase(),
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
