import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import { LEAVE_REQUEST_STAND_IN_KEY, type WaitlistRecord } from '#contract/waitlist-table';
import type { WaitlistStore } from '../store/store-client';

/** A mail with the leave link was asked for now; or not (no such record, do-not-mail, asked too recently). */
export type LeaveMailRequest = 'requested' | 'not-requested';

/**
 * Asks for a mail with the leave link to the record under `key`, if there is one that may be mailed and
 * none was asked for in the last LEAVE_MAIL_INTERVAL_MINUTES. The mailer sends it from the table's
 * stream. Nothing is created for an address that is not on the list. Store failures are thrown.
 *
 * The store does the same work whatever the answer, so the time it takes tells nobody whether the address
 * is on the list: one consistent read of the key, then one write that succeeds, to the record when a mail
 * is asked, else to LEAVE_REQUEST_STAND_IN_KEY. (A conditional write that fails, as a lone write for a
 * stranger would, is measurably quicker than one that is made.)
 */
export async function requestLeaveMail(
  store: WaitlistStore,
  key: string,
  { now = new Date(), requestId, abortSignal }: { now?: Date; requestId: string; abortSignal?: AbortSignal },
): Promise<LeaveMailRequest> {
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
    record !== undefined &&
    record.mailSuppressed === undefined &&
    (record.leaveMailRequestedAt === undefined || record.leaveMailRequestedAt <= cutoff);
  const values = { ':id': requestId, ':now': now.toISOString() };

  if (!mayAsk) {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: LEAVE_REQUEST_STAND_IN_KEY },
        UpdateExpression: 'SET requestId = :id, requestedAt = :now',
        ExpressionAttributeValues: values,
      }),
      { abortSignal },
    );
    return 'not-requested';
  }
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: key },
        UpdateExpression: 'SET leaveMailRequestId = :id, leaveMailRequestedAt = :now',
        // Checked again in the write: another request, or a bounce, may have come since the read.
        ConditionExpression:
          'attribute_exists(email) AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(leaveMailRequestedAt) OR leaveMailRequestedAt <= :cutoff)',
        ExpressionAttributeValues: { ...values, ':cutoff': cutoff },
      }),
      { abortSignal },
    );
    return 'requested';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'not-requested';
    throw error;
  }
}
