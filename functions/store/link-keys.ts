import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId } from '../confirm/confirmation-token';
import { newLinkKeys } from '../leave/leave-token';
import type { WaitlistStore } from './store-client';

export interface LinkKeys {
  /** The record's link id: its confirmation and leave links find it by its hash (the token index). */
  linkId: string;
  /** With linkId, the person's leave link (functions/leave/leave-token.ts). */
  leaveKey: string;
}

/**
 * The link keys of the record under `key`, made now if it has none yet (kept if it has: every mail to a
 * person carries the same leave link). Undefined when there is no such record, or `onlyIf` (a condition
 * of the caller's, with its values) does not hold.
 */
export async function ensureLinkKeys(
  store: WaitlistStore,
  key: string,
  {
    abortSignal,
    onlyIf,
  }: {
    abortSignal?: AbortSignal;
    onlyIf?: { condition: string; values: Record<string, unknown>; names?: Record<string, string> };
  } = {},
): Promise<LinkKeys | undefined> {
  const made = newLinkKeys();
  try {
    const { Attributes } = await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: key },
        // tokenHash goes with linkId: a record that has one has the other.
        UpdateExpression:
          'SET linkId = if_not_exists(linkId, :linkId), tokenHash = if_not_exists(tokenHash, :linkHash), leaveKey = if_not_exists(leaveKey, :leaveKey)',
        ConditionExpression: onlyIf
          ? `attribute_exists(email) AND (${onlyIf.condition})`
          : 'attribute_exists(email)',
        ExpressionAttributeValues: {
          ':linkId': made.linkId,
          ':linkHash': hashOfLinkId(made.linkId),
          ':leaveKey': made.leaveKey,
          ...onlyIf?.values,
        },
        ...(onlyIf?.names ? { ExpressionAttributeNames: onlyIf.names } : {}),
        ReturnValues: 'ALL_NEW',
      }),
      { abortSignal },
    );
    // The keys as stored: the record's own if it had them, else the ones just made.
    const stored = (name: 'linkId' | 'leaveKey') =>
      typeof Attributes?.[name] === 'string' ? (Attributes[name] as string) : made[name];
    return { linkId: stored('linkId'), leaveKey: stored('leaveKey') };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * The record a link's hash belongs to, as the token index has it (the key, status and signup time), or
 * none: how a confirmation link and a leave link find their person.
 */
export async function recordOfLink(
  store: WaitlistStore,
  linkHash: string,
  abortSignal?: AbortSignal,
): Promise<Pick<WaitlistRecord, 'email' | 'status' | 'createdAt'> | undefined> {
  const found = await store.client.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: TOKEN_INDEX.name,
      KeyConditionExpression: '#link = :link',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':link': linkHash },
    }),
    { abortSignal },
  );
  return found.Items?.[0] as Pick<WaitlistRecord, 'email' | 'status' | 'createdAt'> | undefined;
}
