import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import type { WaitlistStore } from '../store/store-client';

/** A mail with the leave link was asked for now; or not (no such record, do-not-mail, asked too recently). */
export type LeaveMailRequest = 'requested' | 'not-requested';

/**
 * Asks for a mail with the leave link to the record under `key`, if there is one that may be mailed and
 * none was asked for in the last LEAVE_MAIL_INTERVAL_MINUTES. The mailer sends it from the table's
 * stream. Nothing is created for an address that is not on the list. Store failures are thrown.
 */
export async function requestLeaveMail(
  store: WaitlistStore,
  key: string,
  { now = new Date(), requestId, abortSignal }: { now?: Date; requestId: string; abortSignal?: AbortSignal },
): Promise<LeaveMailRequest> {
  const cutoff = new Date(now.getTime() - LEAVE_MAIL_INTERVAL_MINUTES * 60_000).toISOString();
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: key },
        UpdateExpression: 'SET leaveMailRequestId = :id, leaveMailRequestedAt = :now',
        ConditionExpression:
          'attribute_exists(email) AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(leaveMailRequestedAt) OR leaveMailRequestedAt <= :cutoff)',
        ExpressionAttributeValues: { ':id': requestId, ':now': now.toISOString(), ':cutoff': cutoff },
      }),
      { abortSignal },
    );
    return 'requested';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'not-requested';
    throw error;
  }
}
