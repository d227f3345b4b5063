import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEFT_COUNTER_KEY, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import type { WaitlistStore } from '../store/store-client';
import { parseLeaveToken } from './leave-token';

/** The person is gone now; or the token removes no one (used, forged, never made, or its record gone). */
export type LeaveResult = 'left' | 'unknown';

/**
 * What pressing "leave" with `token` does: the record the token belongs to is deleted, and the number of
 * people who left (LEFT_COUNTER_KEY) goes up by one. Every other token removes nothing; the caller answers
 * both alike, so nobody learns from a token whether an address is on the list. Store failures are thrown.
 *
 * A record marked do-not-mail (a bounce or a complaint) is kept: it is no longer on the waitlist, and
 * deleting it would let anyone sign that mailbox up again and mail it. A record past its expiry that the
 * table's time to live has not yet removed is deleted but not counted: it had left the list already.
 */
export async function leavePerson(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<LeaveResult> {
  const parsed = parseLeaveToken(token);
  if (!parsed) return 'unknown';

  const found = await store.client.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: TOKEN_INDEX.name,
      KeyConditionExpression: '#link = :link',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':link': parsed.linkHash },
    }),
    { abortSignal },
  );
  const key = (found.Items?.[0] as Pick<WaitlistRecord, 'email'> | undefined)?.email;
  if (key === undefined) return 'unknown';

  let removed: Pick<WaitlistRecord, 'expiresAt'> | undefined;
  try {
    const { Attributes } = await store.client.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: { email: key },
        // The index is read eventually consistent: the record itself must still carry this link.
        ConditionExpression:
          '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
        ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
        ExpressionAttributeValues: { ':link': parsed.linkHash, ':leaveKey': parsed.leaveKey },
        ReturnValues: 'ALL_OLD',
      }),
      { abortSignal },
    );
    removed = Attributes as Pick<WaitlistRecord, 'expiresAt'> | undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'unknown';
    throw error;
  }
  // Two presses at once: only the one whose delete found the record counts it.
  if (!removed) return 'unknown';

  if (removed.expiresAt >= Math.floor(now.getTime() / 1000)) {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: LEFT_COUNTER_KEY },
        UpdateExpression: 'ADD #count :one',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1 },
      }),
      { abortSignal },
    );
  }
  return 'left';
}
