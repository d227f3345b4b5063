import { timingSafeEqual } from 'node:crypto';
import { DeleteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEFT_COUNTER_KEY, MAILBOX_INDEX, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { mailboxHashOf } from '../store/mailbox';
import { unlessConditionFails, type WaitlistStore } from '../store/store-client';
import { parseLeaveToken } from './leave-token';

export type LeaveResult = 'left' | 'unknown';

const DELETES_AT_ONCE = 16;

type Removed = Pick<WaitlistRecord, 'expiresAt'> | undefined;

// The person is the mailbox: every record of it goes, the token's own last (so a leave cut short can be
// pressed again), and LEFT_COUNTER_KEY counts one when a record still on the list went. Do-not-mail
// records stay (deleting them would let anyone sign the mailbox up again); expired ones go uncounted.
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
  const { Item: own } = await store.client.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { email: key },
      ProjectionExpression: '#link, leaveKey',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ConsistentRead: true,
    }),
    { abortSignal },
  );
  if (own?.[TOKEN_INDEX.key.name] !== parsed.linkHash || !sameKey(own?.leaveKey, parsed.leaveKey))
    return 'unknown';

  const mailbox = mailboxHashOf(key);
  const removed: Removed[] = await removeOtherSpellings(store, key, mailbox, abortSignal);
  const ownRemoved = await removeRecord(
    store,
    key,
    [
      '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      { '#link': TOKEN_INDEX.key.name },
      { ':link': parsed.linkHash, ':leaveKey': parsed.leaveKey },
    ],
    abortSignal,
  );
  removed.push(ownRemoved);
  if (!removed.some(Boolean)) return 'unknown';

  // Two presses at once: only the one whose delete found the link's own record counts the person, once.
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (ownRemoved && removed.some((record) => record && record.expiresAt >= nowSeconds)) {
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

function sameKey(stored: unknown, given: string): boolean {
  if (typeof stored !== 'string') return false;
  const [a, b] = [Buffer.from(stored), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

type Condition = [expression: string, names: Record<string, string>, values: Record<string, unknown>];

async function removeOtherSpellings(
  store: WaitlistStore,
  ownKey: string,
  mailbox: string,
  abortSignal: AbortSignal | undefined,
): Promise<Removed[]> {
  const names = { '#mailbox': MAILBOX_INDEX.key.name };
  const values = { ':mailbox': mailbox };
  const keys: string[] = [];
  for await (const page of paginateQuery(
    { client: store.client },
    {
      TableName: store.tableName,
      IndexName: MAILBOX_INDEX.name,
      KeyConditionExpression: '#mailbox = :mailbox',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    { abortSignal },
  )) {
    for (const item of page.Items ?? []) if (item.email !== ownKey) keys.push(String(item.email));
  }
  // The index may lag behind the table.
  const sameMailbox: Condition = [
    '#mailbox = :mailbox AND attribute_not_exists(mailSuppressed)',
    names,
    values,
  ];
  const removed: Removed[] = [];
  for (let start = 0; start < keys.length; start += DELETES_AT_ONCE) {
    const batch = keys.slice(start, start + DELETES_AT_ONCE);
    removed.push(
      ...(await Promise.all(batch.map((key) => removeRecord(store, key, sameMailbox, abortSignal)))),
    );
  }
  return removed;
}

async function removeRecord(
  store: WaitlistStore,
  key: string,
  [ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues]: Condition,
  abortSignal: AbortSignal | undefined,
): Promise<Removed> {
  const deleted = await unlessConditionFails(
    store.client.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: { email: key },
        ConditionExpression,
        ExpressionAttributeNames,
        ExpressionAttributeValues,
        ReturnValues: 'ALL_OLD',
      }),
      { abortSignal },
    ),
  );
  return deleted?.output.Attributes as Removed;
}
