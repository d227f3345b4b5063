import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import type { MailSuppression } from '#contract/waitlist-table';
import { mailboxHash } from '../store/mailbox';
import type { WaitlistStore } from '../store/store-client';

/**
 * The mailboxes no mail may go to: one that bounced for good or complained is an item of the mail limit
 * table (functions/mail-events writes it), under a hash of its delivery key, so every spelling of the
 * mailbox is silenced, not only the one that was mailed. It has no expiry and no function deletes it: it
 * outlives the person's records (leaving, `forget`, the table's time to live), so signing up again cannot
 * mail an inbox that complained. It holds the reason and the time, no address. Every mail (confirmation,
 * leave link, announcement) reads it before it goes.
 */
export interface MailboxSuppression {
  reason: MailSuppression;
  /** ISO 8601: when SES reported it. */
  at: string;
}

/** The item's key: not the limit's own hash (mail-limit.ts), so the two never meet. */
export const hashOfSuppressedMailbox = (emailKey: string) => mailboxHash('suppression', emailKey);

/**
 * Marks the mailbox of `emailKey` as one no mail may go to; false when it was already (a complaint still
 * replaces a bounce). The item has no expiry attribute, so the time to live never deletes it.
 */
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

/** Whether the mailbox of `emailKey` bounced or complained, read as it is now; undefined when it did not. */
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
