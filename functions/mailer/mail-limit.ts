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

/** One mail the limit let through: its request, and when (milliseconds since the epoch). */
interface LimitedSend {
  requestId: string;
  sentAt: number;
}

interface LimitItem {
  sends?: LimitedSend[];
  version?: number;
}

const WINDOW_MS = MAIL_LIMIT_WINDOW_HOURS * 60 * 60 * 1000;
/** Reads and conditional writes before giving up: each one that fails means another sender's went. */
const MAX_TRIES = 10;

/** Other senders kept writing the same mailbox's item: a fault that passes, so the mail stays owed. */
export class MailLimitContended extends Error {
  override name = 'MailLimitContended';
}

/**
 * The per-mailbox mail limit: at most MAILS_PER_MAILBOX mails asked for (confirmations, resends, leave
 * links: one budget) go to one mailbox, however its address is spelled (its delivery key), in any
 * MAIL_LIMIT_WINDOW_HOURS. The mailbox's item in the limit table, keyed by the delivery key's SHA-256, holds
 * the mails it let through in the last window, each as its request id and time, and a version: a request
 * is let through while fewer than MAILS_PER_MAILBOX of them are younger than the window, by a write on
 * condition that the version is still the one read, so of two senders that read the same item only one
 * takes its last place (the other reads again). The item expires with the window after its newest mail:
 * nothing there names a person, and nothing outlives the window. Asking again for a request already let
 * through (a retry of the same mail) is allowed and counts once.
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
          // No version read: the item is new (or gone since, by its time to live).
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

/** The limit table's key for an address's mailbox: a hash, so the table holds no address. */
export const hashOfMailbox = (emailKey: string) => mailboxHash('limit', emailKey);
