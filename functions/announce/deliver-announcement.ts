import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { leaveLink } from '#contract/leave';
import type { Locale } from '#contract/locales';
import type { MailSuppression, WaitlistRecord } from '#contract/waitlist-table';
import { leaveToken } from '../leave/leave-token';
import { announcementMail } from '../mailer/announcement-mail';
import { mailboxAddress, senderDomain } from '../mailer/mail-layout';
import { MailOutcomeUnknown, type MailSettings, type OutgoingMail } from '../mailer/mail-transport';
import { mailboxSuppression } from '../mailer/mailbox-suppression';
import { ensureLinkKeys } from '../store/link-keys';
import type { WaitlistStore } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';
import type { Announcement } from './announcement-text';
import type { ResendUnknownBefore } from './audience';

/** Who the announcement comes from and where its links lead: the same for every recipient. */
export interface AnnouncementSender extends MailSettings {
  /**
   * Resolves when the pace lets the next mail go (pace.ts). Waited for before the person is claimed,
   * so a crash strands only the mails inside `send`, not the pace's queue of claims.
   */
  waitTurn(): Promise<void>;
  /**
   * Hands the mail to SES or the outbox, in the turn just taken, throttling waited out; throws when it did
   * not go (MailPaused: sending is paused), or may have (MailOutcomeUnknown).
   */
  send(mail: OutgoingMail): Promise<void>;
  now?: () => Date;
}

/**
 * The Message-ID of the announcement `id` to the record `key`: the same for every attempt, so the local
 * outbox keeps a repeat as one file (SES replaces it with one of its own). The key only as a hash.
 */
export function announcementMessageId(id: string, key: string, mailFrom: string): string {
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${id}.${hash}@${senderDomain(mailFrom)}`;
}

/** The mail of the announcement to one person, with their own leave link. */
export function announcementFor(
  sender: Omit<AnnouncementSender, 'store' | 'limits' | 'waitTurn' | 'send'>,
  announcement: Announcement,
  person: { key: string; to: string; language: Locale; linkId: string; leaveKey: string; messageId?: string },
): OutgoingMail {
  const leaveUrl = leaveLink(sender.siteUrl, person.language, leaveToken(person.linkId, person.leaveKey));
  const messageId = person.messageId ?? announcementMessageId(announcement.id, person.key, sender.mailFrom);
  const mail = announcementMail({
    to: person.to,
    language: person.language,
    from: sender.mailFrom,
    contactEmail: sender.contactEmail,
    brandName: sender.brandName,
    announcement: announcement.texts[person.language],
    leaveUrl,
    messageId,
    ...(sender.now ? { now: sender.now() } : {}),
  });
  return {
    from: sender.mailFrom,
    to: mailboxAddress(person.to),
    raw: mail.raw,
    kind: 'announcement',
    messageId,
  };
}

/**
 * Sent, or not owed (someone else sent it, the person left, confirmed no more, or was suppressed), or
 * refused by the mail service for good (the person is marked undeliverable for this announcement).
 */
export type DeliveryOutcome = { sent: Locale } | 'not_owed' | 'refused';

/** A failure after SES accepted the mail: it went, but the record could not say so; never retried. */
export class SentButUnrecorded extends Error {
  override name = 'SentButUnrecorded';
  constructor(readonly fault: unknown) {
    super('the mail was accepted, but the record could not be marked as sent');
  }
}

async function updateIf(store: WaitlistStore, command: UpdateCommand) {
  try {
    return await store.client.send(command);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Ends this run's claim on the person under `key` (only while it holds): as sent (`announcements`), as
 * undeliverable, so no run tries again (`announcementsUndeliverable`), or, with no list, owed again.
 */
function endClaim(
  store: WaitlistStore,
  key: string,
  id: string,
  into?: 'announcements' | 'announcementsUndeliverable',
) {
  return updateIf(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: key },
      UpdateExpression: `${into ? `ADD ${into} :ids ` : ''}REMOVE announcing, announcingAt`,
      ConditionExpression: 'announcing = :id',
      ExpressionAttributeValues: { ':id': id, ...(into ? { ':ids': new Set([id]) } : {}) },
    }),
  );
}

/**
 * The record under `key` takes its mailbox's suppression (another spelling bounced or complained): it is
 * off the list from now on, as if its own mail had bounced.
 */
function markSuppressed(store: WaitlistStore, key: string, reason: MailSuppression, at: string) {
  return updateIf(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: key },
      UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :at',
      ConditionExpression: 'attribute_exists(email) AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeValues: { ':reason': reason, ':at': at },
    }),
  );
}

/**
 * Sends the announcement to the record under `key`, at most once ever:
 * 0. not to a mailbox that bounced or complained under any spelling: the record takes its mark instead;
 * 1. its link keys (made now if it has none), for the leave link;
 * 2. its turn at the pace, waited for before the claim, so claims are only as many as the sends under way;
 * 3. claim: `announcing` set to the id, only while the person is confirmed, not suppressed, has not had it
 *    and is not being sent it (or, with `resendUnknownBefore`, was left unknown by an earlier run);
 * 4. send;
 * 5. recorded: the id joins `announcements`, `announcing` goes.
 * A failure before SES accepted clears the claim again, so the mail stays owed. A crash between 3 and 5,
 * or a send SES gave no answer to (MailOutcomeUnknown), leaves `announcing`: that outcome is unknown, and
 * it is reported, and repeated only when the operator asks (`--resend-unknown`). At most once: a second
 * mail to some is worse than none to a few.
 */
export async function deliverAnnouncement(
  sender: AnnouncementSender,
  announcement: Announcement,
  key: string,
  resendUnknownBefore?: ResendUnknownBefore,
): Promise<DeliveryOutcome> {
  const { store } = sender;
  const id = announcement.id;
  const suppression = await mailboxSuppression(sender.limits, key);
  if (suppression) {
    await markSuppressed(store, key, suppression.reason, suppression.at);
    return 'not_owed';
  }
  // Only a confirmed person's record gets keys here: a new pending one's first mail makes its own.
  const keys = await ensureLinkKeys(store, key, {
    onlyIf: {
      condition: '#status = :confirmed',
      values: { ':confirmed': 'confirmed' },
      names: { '#status': 'status' },
    },
  });
  if (!keys) return 'not_owed';
  await sender.waitTurn();
  const unknownOwed = resendUnknownBefore ? ' OR announcingAt < :before' : '';
  const claimed = await updateIf(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: key },
      UpdateExpression: 'SET announcing = :id, announcingAt = :now',
      ConditionExpression: `#status = :confirmed AND attribute_not_exists(mailSuppressed) AND NOT contains(announcements, :id) AND NOT contains(announcementsUndeliverable, :id) AND (attribute_not_exists(announcing) OR announcing <> :id${unknownOwed})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':id': id,
        ':now': (sender.now?.() ?? new Date()).toISOString(),
        ':confirmed': 'confirmed',
        ...(resendUnknownBefore ? { ':before': resendUnknownBefore } : {}),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const record = claimed?.Attributes as WaitlistRecord | undefined;
  if (!record) return 'not_owed';
  const language: Locale = record.language === 'en' ? 'en' : 'nl';

  let mail: OutgoingMail;
  try {
    mail = announcementFor(sender, announcement, {
      key,
      to: record.emailAsEntered ?? key,
      language,
      ...keys,
    });
  } catch {
    // An address the rule refuses now (kept from before it): this person cannot be mailed, and nobody
    // else waits for them. Marked, so no run tries again.
    await endClaim(store, key, id, 'announcementsUndeliverable');
    return 'not_owed';
  }
  try {
    await sender.send(mail);
  } catch (error) {
    // Refused for good (an address SES will not take): marked, like an address the rule refuses.
    if (faultClassOf(error) === 'invalid_request') {
      await endClaim(store, key, id, 'announcementsUndeliverable');
      return 'refused';
    }
    if (error instanceof MailOutcomeUnknown) throw error;
    // Not accepted (a fault that may pass, or sending paused): owed again.
    await endClaim(store, key, id).catch(() => {
      // The claim stays: the person is counted unknown, never sent twice. The send's error is the one to report.
    });
    throw error;
  }

  try {
    await endClaim(store, key, id, 'announcements');
  } catch (error) {
    throw new SentButUnrecorded(error);
  }
  return { sent: language };
}
