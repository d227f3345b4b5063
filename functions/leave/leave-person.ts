import { timingSafeEqual } from 'node:crypto';
import { DeleteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { isSmokeAddress } from '#contract/email-address';
import {
  LEFT_COUNTER_KEY,
  LEFT_MARK_SECONDS,
  leftMarkKey,
  MAILBOX_INDEX,
  TOKEN_INDEX,
  type WaitlistRecord,
} from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { mailboxHash, mailboxHashOf } from '../store/mailbox';
import { readItem, unlessConditionFails, updateIf, type WaitlistStore } from '../store/store-client';
import { parseLeaveToken } from './leave-token';

export type LeaveResult = 'left' | 'unknown';

const DELETES_AT_ONCE = 16;

// The person is the mailbox: every record of it goes, the token's own last (so a leave cut short can be
// pressed again), and LEFT_COUNTER_KEY counts one when a record still on the list went. Do-not-mail
// records stay (deleting them would let anyone sign the mailbox up again); expired ones and the mailbox
// simulator's (`waitlist smoke`) go uncounted.
// Links of one mailbox's spellings pressed at once delete each other's records, so none may remove its own:
// the one that first writes the mailbox's leave mark (leftMarkKey, on condition that no mark is as new as
// the newest record it removed) counts the person, once.
export async function leavePerson(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<LeaveResult> {
  const parsed = parseLeaveToken(token);
  if (!parsed) return 'unknown';
  const key = (await recordOfLink(store, parsed.linkHash, abortSignal))?.email;
  if (key === undefined) return 'unknown';
  // The index is eventually consistent: check the record itself before touching its mailbox.
  const own = await readItem(store, { email: key }, abortSignal);
  const ownLeaveKey = Buffer.from(typeof own?.leaveKey === 'string' ? own.leaveKey : '');
  const givenLeaveKey = Buffer.from(parsed.leaveKey);
  if (
    own?.[TOKEN_INDEX.key.name] !== parsed.linkHash ||
    ownLeaveKey.length !== givenLeaveKey.length ||
    !timingSafeEqual(ownLeaveKey, givenLeaveKey)
  )
    return 'unknown';

  const remove = async (email: string, condition: Omit<DeleteCommand['input'], 'TableName' | 'Key'>) => {
    const command = new DeleteCommand({
      TableName: store.tableName,
      Key: { email },
      ...condition,
      ReturnValues: 'ALL_OLD',
    });
    const deleted = await unlessConditionFails(store.client.send(command, { abortSignal }));
    return deleted?.output.Attributes as Pick<WaitlistRecord, 'expiresAt' | 'createdAt'> | undefined;
  };
  const mailbox = {
    ExpressionAttributeNames: { '#mailbox': MAILBOX_INDEX.key.name },
    ExpressionAttributeValues: { ':mailbox': mailboxHashOf(key) },
  };
  const others: string[] = [];
  const query = {
    TableName: store.tableName,
    IndexName: MAILBOX_INDEX.name,
    KeyConditionExpression: '#mailbox = :mailbox',
    ...mailbox,
  };
  for await (const page of paginateQuery({ client: store.client }, query, { abortSignal })) {
    for (const item of page.Items ?? []) if (item.email !== key) others.push(String(item.email));
  }
  const removed = [];
  // The index may lag behind the table.
  const ConditionExpression = '#mailbox = :mailbox AND attribute_not_exists(mailSuppressed)';
  for (let start = 0; start < others.length; start += DELETES_AT_ONCE) {
    const batch = others.slice(start, start + DELETES_AT_ONCE);
    removed.push(
      ...(await Promise.all(batch.map((email) => remove(email, { ...mailbox, ConditionExpression })))),
    );
  }
  removed.push(
    await remove(key, {
      ConditionExpression: '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':link': parsed.linkHash, ':leaveKey': parsed.leaveKey },
    }),
  );
  if (!removed.some(Boolean)) return 'unknown';

  const nowSeconds = Math.floor(now.getTime() / 1000);
  const newest = removed
    .flatMap((record) => (record && record.expiresAt >= nowSeconds ? [record.createdAt] : []))
    .sort()
    .at(-1);
  // A do-not-mail record's person is off the list already, counted as bounced or complained.
  if (newest === undefined || own?.mailSuppressed !== undefined || isSmokeAddress(key)) return 'left';
  const marked = await updateIf(
    store,
    leftMarkKey(mailboxHash('left', key)),
    {
      UpdateExpression: 'SET leftAt = :now, expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(leftAt) OR leftAt < :newest',
      ExpressionAttributeValues: {
        ':now': now.toISOString(),
        ':newest': newest,
        ':expiresAt': nowSeconds + LEFT_MARK_SECONDS,
      },
    },
    abortSignal,
  );
  if (marked) {
    const count = {
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1 },
    };
    await updateIf(store, LEFT_COUNTER_KEY, count, abortSignal);
  }
  return 'left';
}
