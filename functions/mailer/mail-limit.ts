import {
  MAIL_LIMIT_EXPIRY_ATTRIBUTE,
  MAIL_LIMIT_TABLE_KEY,
  MAIL_LIMIT_WINDOW_HOURS,
  MAILS_PER_MAILBOX,
} from '#contract/abuse-limits';
import { isSmokeAddress } from '#contract/email-address';
import type { MailSuppression } from '#contract/waitlist-table';
import { mailboxHash } from '../store/mailbox';
import { putIf, readItem, updateIf, type WaitlistStore } from '../store/store-client';

const WINDOW_MS = MAIL_LIMIT_WINDOW_HOURS * 60 * 60 * 1000;
/** Each write that fails means another sender's went. */
const MAX_TRIES = 10;

/** Other senders kept writing the mailbox's item: a fault that passes, so the mail stays owed. */
export class MailLimitContended extends Error {
  override name = 'MailLimitContended';
}

// At most MAILS_PER_MAILBOX mails to one mailbox, however spelled, in any window; a retry counts once. The
// item's version is written on condition, so of two senders only one takes the last place.
export async function mayMail(
  limits: WaitlistStore,
  emailKey: string,
  requestId: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<boolean> {
  // The live smoke check mails it on every deploy; its record is forgotten after each run.
  if (isSmokeAddress(emailKey)) return true;
  // A hash, so the table holds no address.
  const key = { [MAIL_LIMIT_TABLE_KEY.name]: mailboxHash('limit', emailKey) };
  const at = now.getTime();
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const item = (await readItem(limits, key)) as
      | { sends?: { requestId: string; sentAt: number }[]; version?: number }
      | undefined;
    const inWindow = (item?.sends ?? []).filter((send) => send.sentAt > at - WINDOW_MS);
    if (inWindow.some((send) => send.requestId === requestId)) return true;
    if (inWindow.length >= MAILS_PER_MAILBOX) return false;
    const sends = [...inWindow, { requestId, sentAt: at }];
    const newest = Math.max(...sends.map((send) => send.sentAt));
    const written = await putIf(limits, {
      Item: {
        ...key,
        sends,
        version: (item?.version ?? 0) + 1,
        [MAIL_LIMIT_EXPIRY_ATTRIBUTE]: Math.ceil((newest + WINDOW_MS) / 1000),
      },
      ConditionExpression:
        item?.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ...(item?.version === undefined ? {} : { ExpressionAttributeValues: { ':version': item.version } }),
    });
    if (written) return true;
  }
  throw new MailLimitContended(`the mailbox's limit changed under ${MAX_TRIES} tries in a row`);
}

// A mailbox that bounced for good or complained (`at`: SES's report, ISO 8601): an item under a hash of its
// delivery key (every spelling, no address) with no expiry, so signing up again cannot mail it.
export type MailboxSuppression = { reason: MailSuppression; at: string };

/** False when the mailbox was suppressed already (a complaint still replaces a bounce). */
export async function suppressMailbox(
  limits: WaitlistStore,
  emailKey: string,
  { reason, at }: MailboxSuppression,
): Promise<boolean> {
  return putIf(limits, {
    Item: {
      [MAIL_LIMIT_TABLE_KEY.name]: mailboxHash('suppression', emailKey),
      mailSuppressed: reason,
      mailSuppressedAt: at,
    },
    ConditionExpression:
      reason === 'complaint'
        ? 'attribute_not_exists(#key) OR mailSuppressed <> :complaint'
        : 'attribute_not_exists(#key)',
    ExpressionAttributeNames: { '#key': MAIL_LIMIT_TABLE_KEY.name },
    ...(reason === 'complaint' ? { ExpressionAttributeValues: { ':complaint': 'complaint' } } : {}),
  });
}

/** The mark on the mailbox's record, if there is one; a bounce does not overwrite a complaint. */
export const markRecordSuppressed = (store: WaitlistStore, key: string, { reason, at }: MailboxSuppression) =>
  updateIf(store, key, {
    UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :at',
    ConditionExpression:
      reason === 'complaint'
        ? 'attribute_exists(email) AND (attribute_not_exists(mailSuppressed) OR mailSuppressed <> :reason)'
        : 'attribute_exists(email) AND attribute_not_exists(mailSuppressed)',
    ExpressionAttributeValues: { ':reason': reason, ':at': at },
  });

export async function mailboxSuppression(limits: WaitlistStore, emailKey: string) {
  const Item = await readItem(limits, { [MAIL_LIMIT_TABLE_KEY.name]: mailboxHash('suppression', emailKey) });
  const reason: unknown = Item?.mailSuppressed;
  if (reason !== 'bounce' && reason !== 'complaint') return undefined;
  return { reason, at: String(Item?.mailSuppressedAt ?? '') } satisfies MailboxSuppression;
}
