import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import { LEAVE_REQUEST_STAND_IN_KEY, MAILBOX_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { mailboxHashOf } from '../store/mailbox';
import { updateIf, type WaitlistStore } from '../store/store-client';

// Any spelling of a mailbox on the list asks for one mail, with the leave link of the mailbox's first record
// by key (a leave removes every record of its mailbox), so the interval holds per mailbox. The same store
// work whatever the answer, so its time tells nobody whether the address is on the list: the mailbox
// index's query, one consistent read, then one write that succeeds, to the record or else to
// LEAVE_REQUEST_STAND_IN_KEY (a failing conditional write is measurably quicker than one that is made).
export async function requestLeaveMail(
  store: WaitlistStore,
  key: string,
  { now = new Date(), requestId, abortSignal }: { now?: Date; requestId: string; abortSignal?: AbortSignal },
): Promise<'requested' | 'not-requested'> {
  const { tableName: TableName, client } = store;
  const cutoff = new Date(now.getTime() - LEAVE_MAIL_INTERVAL_MINUTES * 60_000).toISOString();
  const query = new QueryCommand({
    TableName,
    IndexName: MAILBOX_INDEX.name,
    KeyConditionExpression: 'mailbox = :mailbox',
    ExpressionAttributeValues: { ':mailbox': mailboxHashOf(key) },
  });
  const { Items = [] } = await client.send(query, { abortSignal });
  const [first = key] = Items.map((item) => String(item.email)).sort();
  const ProjectionExpression = 'email, mailSuppressed, leaveMailRequestedAt';
  const get = new GetCommand({
    TableName,
    Key: { email: first },
    ProjectionExpression,
    ConsistentRead: true,
  });
  const record = (await client.send(get, { abortSignal })).Item as WaitlistRecord | undefined;
  const mayAsk =
    record && record.mailSuppressed === undefined && (record.leaveMailRequestedAt ?? '') <= cutoff;
  const values = { ':id': requestId, ':now': now.toISOString() };
  const update = mayAsk
    ? {
        UpdateExpression: 'SET leaveMailRequestId = :id, leaveMailRequestedAt = :now',
        ConditionExpression:
          'attribute_exists(email) AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(leaveMailRequestedAt) OR leaveMailRequestedAt <= :cutoff)',
        ExpressionAttributeValues: { ...values, ':cutoff': cutoff },
      }
    : { UpdateExpression: 'SET requestId = :id, requestedAt = :now', ExpressionAttributeValues: values };
  const updated = await updateIf(store, mayAsk ? first : LEAVE_REQUEST_STAND_IN_KEY, update, abortSignal);
  return mayAsk && updated ? 'requested' : 'not-requested';
}
