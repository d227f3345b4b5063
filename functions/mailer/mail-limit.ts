import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAIL_LIMIT_EXPIRY_ATTRIBUTE,
  MAIL_LIMIT_TABLE_KEY,
  MAIL_LIMIT_WINDOW_HOURS,
  MAILS_PER_MAILBOX,
} from '#contract/abuse-limits';
import { mailboxHash } from '../store/mailbox';
import type { WaitlistStore } from '../store/store-client';

interface LimitItem {
  sends?: { requestId: string; sentAt: number }[];
  version?: number;
}

const WINDOW_MS = MAIL_LIMIT_WINDOW_HOURS * 60 * 60 * 1000;
/** Each write that fails means another sender's went. */
const MAX_TRIES = 10;

/** Other senders kept writing the mailbox's item: a fault that passes, so the mail stays owed. */
export class MailLimitContended extends Error {
  override name = 'MailLimitContended';
}

/**
 * At most MAILS_PER_MAILBOX mails of any kind to one mailbox, however spelled, in any window. The item holds
 * the window's sends and a version written on condition, so of two senders only one takes the last place.
 * A retry of a request already let through is allowed and counts once.
 */
export async function mayMail(
  limits: WaitlistStore,
  emailKey: string,
  requestId: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<boolean> {
  const key = { [MAIL_LIMIT_TABLE_KEY.name]: hashOfMailbox(emailKey) };
  const at = now.getTime();
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const { Item } = await limits.client.send(
      new GetCommand({ TableName: limits.tableName, Key: key, ConsistentRead: true }),
      { abortSignal },
    );
    const item = Item as LimitItem | undefined;
    const inWindow = (item?.sends ?? []).filter((send) => send.sentAt > at - WINDOW_MS);
    if (inWindow.some((send) => send.requestId === requestId)) return true;
    if (inWindow.length >= MAILS_PER_MAILBOX) return false;
    const sends = [...inWindow, { requestId, sentAt: at }];
    const newest = Math.max(...sends.map((send) => send.sentAt));
    try {
      await limits.client.send(
        new UpdateCommand({
          TableName: limits.tableName,
          Key: key,
          UpdateExpression: 'SET sends = :sends, #version = :next, #expiresAt = :expiresAt',
          ConditionExpression:
            item?.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version',
          ExpressionAttributeNames: { '#version': 'version', '#expiresAt': MAIL_LIMIT_EXPIRY_ATTRIBUTE },
          ExpressionAttributeValues: {
            ':sends': sends,
            ':next': (item?.version ?? 0) + 1,
            ':expiresAt': Math.ceil((newest + WINDOW_MS) / 1000),
            ...(item?.version === undefined ? {} : { ':version': item.version }),
          },
        }),
        { abortSignal },
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  throw new MailLimitContended(`the mailbox's limit changed under ${MAX_TRIES} tries in a row`);
}

/** A hash, so the table holds no address. */
export const hashOfMailbox = (emailKey: string) => mailboxHash('limit', emailKey);
