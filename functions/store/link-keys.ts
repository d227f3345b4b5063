import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId } from '../confirm/confirmation-token';
import { newLinkKeys } from '../leave/leave-token';
import { updateIf, type WaitlistStore } from './store-client';

/** Made once and kept: every mail to a person carries the same leave link. Undefined if `onlyIf` fails. */
export async function ensureLinkKeys(
  store: WaitlistStore,
  key: string,
  {
    onlyIf,
  }: { onlyIf?: { condition: string; values: Record<string, unknown>; names?: Record<string, string> } } = {},
): Promise<{ linkId: string; leaveKey: string } | undefined> {
  const made = newLinkKeys();
  const updated = await updateIf(store, key, {
    UpdateExpression:
      'SET linkId = if_not_exists(linkId, :linkId), tokenHash = if_not_exists(tokenHash, :linkHash), leaveKey = if_not_exists(leaveKey, :leaveKey)',
    ConditionExpression: `attribute_exists(email)${onlyIf ? ` AND (${onlyIf.condition})` : ''}`,
    ExpressionAttributeValues: {
      ':linkId': made.linkId,
      ':linkHash': hashOfLinkId(made.linkId),
      ':leaveKey': made.leaveKey,
      ...onlyIf?.values,
    },
    ...(onlyIf?.names ? { ExpressionAttributeNames: onlyIf.names } : {}),
    ReturnValues: 'ALL_NEW',
  });
  if (!updated) return undefined;
  const stored = updated.Attributes ?? {};
  return {
    linkId: typeof stored.linkId === 'string' ? stored.linkId : made.linkId,
    leaveKey: typeof stored.leaveKey === 'string' ? stored.leaveKey : made.leaveKey,
  };
}

export async function recordOfLink(store: WaitlistStore, linkHash: string, abortSignal?: AbortSignal) {
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
