import { createHash } from 'node:crypto';
import { leaveLink } from '#contract/leave';
import type { Locale } from '#contract/locales';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { leaveToken } from '../leave/leave-token';
import { announcementMail } from '../mailer/announcement-mail';
import { mailboxAddress, senderDomain } from '../mailer/mail-layout';
import { mailboxSuppression, markRecordSuppressed } from '../mailer/mail-limit';
import { MailOutcomeUnknown, type MailSettings, type OutgoingMail } from '../mailer/mail-transport';
import { ensureLinkKeys } from '../store/link-keys';
import { updateIf } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';
import type { Announcement } from './announcement-text';

export interface AnnouncementSender extends MailSettings {
  /** Waited for before the person is claimed, so a crash strands only the mails inside `send`. */
  waitTurn(): Promise<void>;
  /** Sends in the turn just taken; throws when the mail did not go, or may have (MailOutcomeUnknown). */
  send(mail: OutgoingMail): Promise<unknown>;
}

export function announcementFor(
  sender: Omit<AnnouncementSender, 'store' | 'limits' | 'waitTurn' | 'send'>,
  announcement: Announcement,
  person: { key: string; to: string; language: Locale; linkId: string; leaveKey: string; messageId?: string },
): OutgoingMail {
  const leaveUrl = leaveLink(sender.siteUrl, person.language, leaveToken(person.linkId, person.leaveKey));
  // The same for every attempt, so the local outbox keeps a repeat as one file; the key only as a hash.
  const hash = createHash('sha256').update(person.key).digest('hex').slice(0, 16);
  const messageId = person.messageId ?? `${announcement.id}.${hash}@${senderDomain(sender.mailFrom)}`;
  const { raw } = announcementMail({
    ...sender,
    to: person.to,
    language: person.language,
    announcement: announcement.texts[person.language],
    leaveUrl,
    messageId,
  });
  return { from: sender.mailFrom, to: mailboxAddress(person.to), raw, kind: 'announcement', messageId };
}

export class SentButUnrecorded extends Error {
  override name = 'SentButUnrecorded';
}

// At most once ever (a second mail to some is worse than none to a few): claimed, sent, recorded. A failure
// before SES accepted clears the claim; a crash after it, or no answer from SES, leaves it: unknown, resent
// only with `--resend-unknown`. `refused` (by SES, for good) marks the person undeliverable for this one.
export async function deliverAnnouncement(
  sender: AnnouncementSender,
  announcement: Announcement,
  key: string,
  resendUnknownBefore?: string,
) {
  const { store } = sender;
  const id = announcement.id;
  /** Ends this run's claim: as sent, as undeliverable (no run tries again), or, with no list, owed again. */
  const endClaim = (into?: 'announcements' | 'announcementsUndeliverable') =>
    updateIf(store, key, {
      UpdateExpression: `${into ? `ADD ${into} :ids ` : ''}REMOVE announcing, announcingAt`,
      ConditionExpression: 'announcing = :id',
      ExpressionAttributeValues: { ':id': id, ...(into ? { ':ids': new Set([id]) } : {}) },
    });
  const suppression = await mailboxSuppression(sender.limits, key);
  if (suppression) {
    // Another spelling bounced or complained: the record is off the list, as if its own mail had.
    await markRecordSuppressed(store, key, suppression);
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
  const claimed = await updateIf(store, key, {
    UpdateExpression: 'SET announcing = :id, announcingAt = :now',
    ConditionExpression: `#status = :confirmed AND attribute_not_exists(mailSuppressed) AND NOT contains(announcements, :id) AND NOT contains(announcementsUndeliverable, :id) AND (attribute_not_exists(announcing) OR announcing <> :id${unknownOwed})`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':id': id,
      ':now': new Date().toISOString(),
      ':confirmed': 'confirmed',
      ...(resendUnknownBefore ? { ':before': resendUnknownBefore } : {}),
    },
    ReturnValues: 'ALL_NEW',
  });
  const record = claimed?.Attributes as WaitlistRecord | undefined;
  if (!record) return 'not_owed';
  const language: Locale = record.language === 'en' ? 'en' : 'nl';
  const to = record.emailAsEntered ?? key;
  let mail: OutgoingMail;
  try {
    mail = announcementFor(sender, announcement, { key, to, language, ...keys });
  } catch {
    // An address the rule refuses now (kept from before it): marked, so no run tries again.
    await endClaim('announcementsUndeliverable');
    return 'not_owed';
  }
  try {
    await sender.send(mail);
  } catch (error) {
    if (faultClassOf(error) === 'invalid_request') {
      await endClaim('announcementsUndeliverable');
      return 'refused';
    }
    if (error instanceof MailOutcomeUnknown) throw error;
    // Not accepted: owed again. Should that fail, the claim stays (never resent); the send's error is thrown.
    await endClaim().catch(() => undefined);
    throw error;
  }

  const unrecorded = 'the mail was accepted, but the record could not be marked as sent';
  await endClaim('announcements').catch((cause: unknown) => {
    throw new SentButUnrecorded(unrecorded, { cause });
  });
  return { sent: language };
}
