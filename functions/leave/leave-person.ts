import { timingSafeEqual } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEFT_COUNTER_KEY, MAILBOX_INDEX, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { mailboxHashOf } from '../store/mailbox';
import type { WaitlistStore } from '../store/store-client';
import { parseLeaveToken } from './leave-token';

/** The person is gone now; or the token removes no one (used, forged, never made, or its record gone). */
export type LeaveResult = 'left' | 'unknown';

/** Deletes under way at once when a mailbox has many records: well inside the store's deadline. */
const DELETES_AT_ONCE = 16;

type Removed = Pick<WaitlistRecord, 'expiresAt'> | undefined;

/**
 * What pressing "leave" with `token` does: the person leaves, and the person is the mailbox, not one
 * spelling of it. Every record of the mailbox the token's record delivers to (found in the mailbox index)
 * is deleted, then the token's own record, and the number of people who left (LEFT_COUNTER_KEY) goes up by
 * one when a record still on the list went. Every other token removes nothing; the caller answers both
 * alike, so nobody learns from a token whether an address is on the list. Store failures are thrown.
 *
 * The token's own record goes last: a leave cut short (a store fault, the deadline) can be pressed again
 * with the same link and finishes.
 *
 * A record marked do-not-mail (a bounce or a complaint) is kept: it is no longer on the waitlist, and
 * deleting it would let anyone sign that mailbox up again and mail it; when it is the token's own, the
 * person was off the list already and is not counted. A record past its expiry that the
 * table's time to live has not yet removed is deleted but not counted: it had left the list already.
 */
export async function leavePerson(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<LeaveResult> {
  const parsed = parseLeaveToken(token);
  if (!parsed) return 'unknown';

  const key = (await recordOfLink(store, parsed.linkHash, abortSignal))?.email;
  if (key === undefined) return 'unknown';

  // The index is read eventually consistent: the record itself must carry this link and leave key before
  // anything of its mailbox is touched.
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
    {
      condition: '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      names: { '#link': TOKEN_INDEX.key.name },
      values: { ':link': parsed.linkHash, ':leaveKey': parsed.leaveKey },
    },
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

/** A leave key from a token against the record's, in time that does not depend on where they differ. */
function sameKey(stored: unknown, given: string): boolean {
  if (typeof stored !== 'string') return false;
  const [a, b] = [Buffer.from(stored), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Deletes every other record the mailbox index holds for `mailbox`, a few at a time; what each held. */
async function removeOtherSpellings(
  store: WaitlistStore,
  ownKey: string,
  mailbox: string,
  abortSignal: AbortSignal | undefined,
): Promise<Removed[]> {
  const keys: string[] = [];
  for await (const page of paginateQuery(
    { client: store.client },
    {
      TableName: store.tableName,
      IndexName: MAILBOX_INDEX.name,
      KeyConditionExpression: '#mailbox = :mailbox',
      ExpressionAttributeNames: { '#mailbox': MAILBOX_INDEX.key.name },
      ExpressionAttributeValues: { ':mailbox': mailbox },
    },
    { abortSignal },
  )) {
    for (const item of page.Items ?? []) if (item.email !== ownKey) keys.push(String(item.email));
  }
  const removed: Removed[] = [];
  for (let start = 0; start < keys.length; start += DELETES_AT_ONCE) {
    removed.push(
      ...(await Promise.all(
        keys.slice(start, start + DELETES_AT_ONCE).map((key) =>
          removeRecord(
            store,
            key,
            {
              // The index may lag behind the table: the record itself must still be of this mailbox.
              condition: '#mailbox = :mailbox AND attribute_not_exists(mailSuppressed)',
              names: { '#mailbox': MAILBOX_INDEX.key.name },
              values: { ':mailbox': mailbox },
            },
            abortSignal,
          ),
        ),
      )),
    );
  }
  return removed;
}

/** Deletes the record under `key` if `condition` holds; what it held, or undefined when nothing went. */
async function removeRecord(
  store: WaitlistStore,
  key: string,
  {
    condition,
    names,
    values,
  }: { condition: string; names: Record<string, string>; values: Record<string, unknown> },
  abortSignal: AbortSignal | undefined,
): Promise<Removed> {
  try {
    const { Attributes } = await store.client.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: { email: key },
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
      }),
      { abortSignal },
    );
    return Attributes as Removed;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
