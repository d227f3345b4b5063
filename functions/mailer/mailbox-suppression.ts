import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import type { MailSuppression } from '#contract/waitlist-table';
import { mailboxHash } from '../store/mailbox';
import type { WaitlistStore } from '../store/store-client';

// A mailbox that bounced for good or complained: an item of the mail limit table under a hash of its delivery
// key (every spelling silenced, no address kept), with no expiry, so it outlives the person's records and
// signing up again cannot mail an inbox that complained.
export interface MailboxSuppression {
  reason: MailSuppression;
  /** ISO 8601: when SES reported it. */
  at: string;
}

/** Not the limit's own hash (mail-limit.ts), so the two never meet. */
export const hashOfSuppressedMailbox = (emailKey: string) => mailboxHash('suppression', emailKey);

/** False when the mailbox was suppressed already (a complaint still replaces a bounce). */
export async function suppressMailbox(
  limits: WaitlistStore,
  emailKey: string,
  { reason, at }: MailboxSuppression,
): Promise<boolean> {
  try {
    await limits.client.send(
      new PutCommand({
        TableName: limits.tableName,
        Item: {
          [MAIL_LIMIT_TABLE_KEY.name]: hashOfSuppressedMailbox(emailKey),
          mailSuppressed: reason,
          mailSuppressedAt: at,
        },
        ConditionExpression:
          reason === 'complaint'
            ? 'attribute_not_exists(#key) OR mailSuppressed <> :complaint'
            : 'attribute_not_exists(#key)',
        ExpressionAttributeNames: { '#key': MAIL_LIMIT_TABLE_KEY.name },
        ...(reason === 'complaint' ? { ExpressionAttributeValues: { ':complaint': 'complaint' } } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function mailboxSuppression(
  limits: WaitlistStore,
  emailKey: string,
  { abortSignal }: { abortSignal?: AbortSignal } = {},
): Promise<MailboxSuppression | undefined> {
  const { Item } = await limits.client.send(
    new GetCommand({
      TableName: limits.tableName,
      Key: { [MAIL_LIMIT_TABLE_KEY.name]: hashOfSuppressedMailbox(emailKey) },
      ConsistentRead: true,
    }),
    { abortSignal },
  );
  const reason = Item?.mailSuppressed;
  if (reason !== 'bounce' && reason !== 'complaint') return undefined;
  return { reason, at: String(Item?.mailSuppressedAt ?? '') };
}

/** A conditional update: undefined when its condition does not hold. */
export async function updateIf(store: WaitlistStore, command: UpdateCommand) {
  try {
    return await store.client.send(command);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
