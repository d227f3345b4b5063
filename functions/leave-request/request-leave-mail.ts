import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import { LEAVE_REQUEST_STAND_IN_KEY, type WaitlistRecord } from '#contract/waitlist-table';
import { updateIf, type WaitlistStore } from '../store/store-client';

// The same store work whatever the answer, so its time tells nobody whether the address is on the list:
// one consistent read, then one write that succeeds, to the record or else to LEAVE_REQUEST_STAND_IN_KEY
// (a failing conditional write is measurably quicker than one that is made).
export async function requestLeaveMail(
  store: WaitlistStore,
  key: string,
  { now = new Date(), requestId, abortSignal }: { now?: Date; requestId: string; abortSignal?: AbortSignal },
): Promise<'requested' | 'not-requested'> {
  const cutoff = new Date(now.getTime() - LEAVE_MAIL_INTERVAL_MINUTES * 60_000).toISOString();
  const { Item } = await store.client.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { email: key },
      ProjectionExpression: 'email, mailSuppressed, leaveMailRequestedAt',
      ConsistentRead: true,
    }),
    { abortSignal },
  );
  const record = Item as Pick<WaitlistRecord, 'mailSuppressed' | 'leaveMailRequestedAt'> | undefined;
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
  const updated = await updateIf(store, mayAsk ? key : LEAVE_REQUEST_STAND_IN_KEY, update, abortSignal);
  return mayAsk && updated ? 'requested' : 'not-requested';
}
