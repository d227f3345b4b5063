import { createHash, timingSafeEqual } from 'node:crypto';
import { DeleteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { isSmokeAddress } from '#contract/email-address';
import * as table from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { mailboxHash, mailboxHashOf } from '../store/mailbox';
import { readItem, unlessConditionFails, updateIf, type WaitlistStore } from '../store/store-client';
import { parseLeaveToken } from './leave-token';

const DELETES_AT_ONCE = 16;

// The person is the mailbox: every record of it goes, the token's own last (so a leave cut short can be
// pressed again). Do-not-mail records stay: deleting them would let anyone sign the mailbox up again.
// LEFT_COUNTER_KEY counts one when a record still on the list went (not the mailbox simulator's), once
// however many spellings' links are pressed at once: by whichever first writes the mailbox's leave mark
// (leftMarkKey) newer than the newest record it removed.
export async function leavePerson(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'left' | 'unknown'> {
  const parsed = parseLeaveToken(token);
  const key = parsed && (await recordOfLink(store, parsed.linkHash, abortSignal))?.email;
  if (!parsed || key === undefined) return 'unknown';
  // The index is eventually consistent: check the record itself before touching its mailbox.
  const own = (await readItem(store, { email: key }, abortSignal)) as table.WaitlistRecord | undefined;
  const leaveKey = (text = '') => createHash('sha256').update(text).digest();
  if (
    own?.tokenHash !== parsed.linkHash ||
    !timingSafeEqual(leaveKey(own.leaveKey), leaveKey(parsed.leaveKey))
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
    return deleted?.output.Attributes as Pick<table.WaitlistRecord, 'expiresAt' | 'createdAt'> | undefined;
  };
  const mailbox = { ExpressionAttributeValues: { ':mailbox': mailboxHashOf(key) } };
  const query = {
    TableName: store.tableName,
    IndexName: table.MAILBOX_INDEX.name,
    KeyConditionExpression: 'mailbox = :mailbox',
  };
  const others: string[] = [];
  for await (const page of paginateQuery({ client: store.client }, { ...query, ...mailbox }, { abortSignal }))
    others.push(...(page.Items ?? []).map((item) => String(item.email)).filter((email) => email !== key));
  // The index may lag behind the table.
  const ConditionExpression = 'mailbox = :mailbox AND attribute_not_exists(mailSuppressed)';
  const removed = [];
  for (let start = 0; start < others.length; start += DELETES_AT_ONCE) {
    const batch = others.slice(start, start + DELETES_AT_ONCE);
    removed.push(
      ...(await Promise.all(batch.map((email) => remove(email, { ...mailbox, ConditionExpression })))),
    );
  }
  removed.push(
    await remove(key, {
      ConditionExpression:
        'tokenHash = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeValues: { ':link': parsed.linkHash, ':leaveKey': parsed.leaveKey },
    }),
  );
  if (!removed.some(Boolean)) return 'unknown';

  const nowSeconds = Math.floor(now.getTime() / 1000);
  const onList = removed.flatMap((record) =>
    record && record.expiresAt >= nowSeconds ? [record.createdAt] : [],
  );
  const newest = onList.sort().at(-1);
  // A do-not-mail record's person is off the list already, counted as bounced or complained.
  if (newest === undefined || own.mailSuppressed !== undefined || isSmokeAddress(key)) return 'left';
  const marked = await updateIf(
    store,
    table.leftMarkKey(mailboxHash('left', key)),
    {
      UpdateExpression: 'SET leftAt = :now, expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(leftAt) OR leftAt < :newest',
      ExpressionAttributeValues: {
        ':now': now.toISOString(),
        ':newest': newest,
        ':expiresAt': nowSeconds + table.LEFT_MARK_SECONDS,
      },
    },
    abortSignal,
  );
  const count = { UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' } };
  if (marked)
    await updateIf(
      store,
      table.LEFT_COUNTER_KEY,
      { ...count, ExpressionAttributeValues: { ':one': 1 } },
      abortSignal,
    );
  return 'left';
}
