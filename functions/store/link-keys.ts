import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId } from '../confirm/confirmation-token';
import { newLinkKeys } from '../leave/leave-token';
import { updateIf, type WaitlistStore } from './store-client';

type Condition = { condition: string; values: Record<string, unknown>; names?: Record<string, string> };

/** Made once and kept: every mail to a person carries the same leave link. Undefined if `onlyIf` fails. */
export async function ensureLinkKeys(
  store: WaitlistStore,
  key: string,
  { onlyIf }: { onlyIf?: Condition } = {},
) {
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
  const stored = updated?.Attributes as Pick<WaitlistRecord, 'linkId' | 'leaveKey'> | undefined;
  return updated && { linkId: stored?.linkId ?? made.linkId, leaveKey: stored?.leaveKey ?? made.leaveKey };
}

export async function recordOfLink(store: WaitlistStore, linkHash: string, abortSignal?: AbortSignal) {
  const query = new QueryCommand({
    TableName: store.tableName,
    IndexName: TOKEN_INDEX.name,
    KeyConditionExpression: 'tokenHash = :link',
    ExpressionAttributeValues: { ':link': linkHash },
  });
  const found = await store.client.send(query, { abortSignal });
  return found.Items?.[0] as Pick<WaitlistRecord, 'email' | 'status' | 'createdAt'> | undefined;
}
