import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConfirmResult } from '#contract/confirmation';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { RETENTION_DAYS, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import type { WaitlistStore } from '../store/store-client';
import { checkConfirmationToken } from './confirmation-token';

const SECONDS_PER_DAY = 24 * 60 * 60;

type IndexedRecord = Pick<WaitlistRecord, 'email' | 'status' | 'createdAt'>;

/**
 * What pressing the confirmation button with `token` does. A pending record whose latest token it is
 * becomes confirmed (when, and the version of the text the person confirmed), and is then kept as long as
 * the privacy notice says (RETENTION_DAYS after joining). Every other token gets its own result; none of
 * them says anything about an address the token does not belong to. Store failures are thrown.
 *
 * A token that confirmed its signup says so ever after, also once it is past its days and also when two
 * presses cross: the index is read eventually consistent, so the one record is read again, consistently,
 * before a press that lost is called anything else.
 */
export async function confirmSignup(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<ConfirmResult> {
  const check = checkConfirmationToken(token, now);
  if (!check.ok && check.problem === 'invalid') return 'invalid';

  const found = await store.client.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: TOKEN_INDEX.name,
      KeyConditionExpression: '#hash = :hash',
      ExpressionAttributeNames: { '#hash': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':hash': check.hash },
    }),
    { abortSignal },
  );
  const record = found.Items?.[0] as IndexedRecord | undefined;
  if (record?.status === 'confirmed') return 'already-confirmed';
  if (!check.ok) return 'expired';
  if (!record) return 'unknown';

  const joinedSeconds = Math.floor(Date.parse(record.createdAt) / 1000);
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression:
          'SET #status = :confirmed, confirmedAt = :now, confirmedConsentVersion = :version, expiresAt = :expiresAt REMOVE mailRequestId, mailRequestedAt, mailsRequested, mailedRequestId',
        // Still this token, still pending: a newer mail or a confirmation a moment ago wins.
        ConditionExpression: '#hash = :hash AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status', '#hash': TOKEN_INDEX.key.name },
        ExpressionAttributeValues: {
          ':confirmed': 'confirmed',
          ':pending': 'pending',
          ':now': now.toISOString(),
          ':version': SIGNUP_NOTE_VERSION,
          ':expiresAt': joinedSeconds + RETENTION_DAYS * SECONDS_PER_DAY,
          ':hash': check.hash,
        },
      }),
      { abortSignal },
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (await confirmedWith(store, record.email, check.hash, abortSignal))
      ? 'already-confirmed'
      : 'unknown';
  }
  return 'confirmed';
}

/** Whether the record under `key` is confirmed, by the token whose hash is `hash`: read as it is now. */
async function confirmedWith(
  store: WaitlistStore,
  key: string,
  hash: string,
  abortSignal: AbortSignal | undefined,
): Promise<boolean> {
  const { Item } = await store.client.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { email: key },
      ConsistentRead: true,
      ProjectionExpression: '#status, #hash',
      ExpressionAttributeNames: { '#status': 'status', '#hash': TOKEN_INDEX.key.name },
    }),
    { abortSignal },
  );
  return Item?.status === 'confirmed' && Item[TOKEN_INDEX.key.name] === hash;
}
