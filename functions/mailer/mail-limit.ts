import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAIL_LIMIT_EXPIRY_ATTRIBUTE,
  MAIL_LIMIT_TABLE_KEY,
  MAIL_LIMIT_WINDOW_HOURS,
  MAILS_PER_MAILBOX,
} from '#contract/abuse-limits';
import { deliveryKey } from '#contract/email-address';
import type { WaitlistStore } from '../store/store-client';

/**
 * The per-mailbox mail limit: at most MAILS_PER_MAILBOX mail requests per MAIL_LIMIT_WINDOW_HOURS go to one
 * mailbox, however its address is spelled (its delivery key). Each window is one item in the limit table,
 * keyed by the delivery key's SHA-256, holding the ids of the requests it let through and deleted by the
 * table's time to live when it ends: nothing there names a person, and nothing outlives the window.
 * Asking again for a request already let through (a retry of the same mail) is allowed and counts once.
 */
export async function mayMail(
  limits: WaitlistStore,
  emailKey: string,
  requestId: string,
  {
    now = new Date(),
    abortSignal,
    budget = 'confirmation',
  }: {
    now?: Date;
    abortSignal?: AbortSignal;
    /**
     * Leave-link mails count apart: a stranger's signups, which use up a mailbox's confirmation mails,
     * must not keep its owner from the link to leave.
     */
    budget?: 'confirmation' | 'leave-link';
  } = {},
): Promise<boolean> {
  const key = { [MAIL_LIMIT_TABLE_KEY.name]: hashOfMailbox(emailKey, budget) };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const names = { '#key': MAIL_LIMIT_TABLE_KEY.name, '#expiresAt': MAIL_LIMIT_EXPIRY_ATTRIBUTE };
  const attempts = [
    // A new window: none yet, or the last one over (the time to live deletes it only within days).
    new UpdateCommand({
      TableName: limits.tableName,
      Key: key,
      UpdateExpression: 'SET requestIds = :ids, #expiresAt = :windowEnd',
      ConditionExpression: 'attribute_not_exists(#key) OR #expiresAt <= :now',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':ids': new Set([requestId]),
        ':windowEnd': nowSeconds + MAIL_LIMIT_WINDOW_HOURS * 60 * 60,
        ':now': nowSeconds,
      },
    }),
    // The window under way, while it has room, or for a request it let through already.
    new UpdateCommand({
      TableName: limits.tableName,
      Key: key,
      UpdateExpression: 'ADD requestIds :ids',
      ConditionExpression: '#expiresAt > :now AND (contains(requestIds, :id) OR size(requestIds) < :max)',
      ExpressionAttributeNames: { '#expiresAt': MAIL_LIMIT_EXPIRY_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':ids': new Set([requestId]),
        ':id': requestId,
        ':now': nowSeconds,
        ':max': MAILS_PER_MAILBOX,
      },
    }),
  ];
  for (const attempt of attempts) {
    try {
      await limits.client.send(attempt, { abortSignal });
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return false;
}

/** The limit table's key for an address's mailbox: a hash, so the table holds no address. */
export const hashOfMailbox = (emailKey: string, budget: 'confirmation' | 'leave-link' = 'confirmation') =>
  createHash('sha256')
    .update(`${budget === 'leave-link' ? 'leave-link:' : ''}${deliveryKey(emailKey)}`, 'utf8')
    .digest('hex');
