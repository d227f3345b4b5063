import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { leaveLink } from '#contract/leave';
import type { Locale } from '#contract/locales';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { leaveToken } from '../leave/leave-token';
import { announcementMail, mailboxAddress, senderDomain } from '../mailer/mail-layout';
import { mailboxSuppression, markRecordSuppressed } from '../mailer/mail-limit';
import { MailPaused } from '../mailer/mail-pause';
import { MailOutcomeUnknown, type MailSettings, type OutgoingMail } from '../mailer/mail-transport';
import { ensureLinkKeys } from '../store/link-keys';
import { readItem, updateIf, type WaitlistStore } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import type { MetricLine } from '../telemetry/metrics';
import * as passState from './announcement-state';
import type { Announcement } from './announcement-text';

/** `waitTurn` comes before the person is claimed, so a crash strands only the mails inside `send`. */
type Paced = { waitTurn(): Promise<void>; send(mail: OutgoingMail): Promise<unknown> };

export function announcementFor(
  sender: Pick<MailSettings, 'siteUrl' | 'mailFrom' | 'contactEmail' | 'brandName'>,
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

// At most once ever (a second mail to some is worse than none to a few): claimed, sent, recorded. A failure
// before SES accepted clears the claim; a crash after it, or no answer from SES, leaves it: `unrecorded`,
// resent only with `--resend-unknown`. `refused` (by SES, for good) marks the person undeliverable.
async function deliverAnnouncement(
  sender: MailSettings & Paced,
  { announcement, resendUnknownBefore }: passState.AnnouncementState,
  key: string,
): Promise<'not_owed' | 'refused' | 'unrecorded' | `sent_${Locale}`> {
  const { store } = sender;
  const { id } = announcement;
  /** Ends this run's claim: as sent, as undeliverable (no run tries again), or, with no list, owed again. */
  const endClaim = (into?: 'announcements' | 'announcementsUndeliverable') =>
    updateIf(store, key, {
      UpdateExpression: `${into ? `ADD ${into} :ids ` : ''}REMOVE announcing, announcingAt`,
      ConditionExpression: 'announcing = :id',
      ExpressionAttributeValues: { ':id': id, ...(into ? { ':ids': new Set([id]) } : {}) },
    });
  const suppression = await mailboxSuppression(sender.limits, key);
  // Another spelling bounced or complained: the record is off the list, as if its own mail had.
  if (suppression) return markRecordSuppressed(store, key, suppression).then(() => 'not_owed');
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
  const claimed = await updateIf(store, key, {
    UpdateExpression: 'SET announcing = :id, announcingAt = :now',
    ConditionExpression: `#status = :confirmed AND attribute_not_exists(mailSuppressed) AND NOT contains(announcements, :id) AND NOT contains(announcementsUndeliverable, :id) AND (attribute_not_exists(announcing) OR announcing <> :id${resendUnknownBefore ? ' OR announcingAt < :before' : ''})`,
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
  let mail: OutgoingMail;
  try {
    const to = record.emailAsEntered ?? key;
    mail = announcementFor(sender, announcement, { key, to, language, ...keys });
  } catch {
    // An address the rule refuses now (kept from before it): marked, so no run tries again.
    return endClaim('announcementsUndeliverable').then(() => 'not_owed');
  }
  try {
    await sender.send(mail);
  } catch (error) {
    if (faultClassOf(error) === 'invalid_request')
      return endClaim('announcementsUndeliverable').then(() => 'refused');
    // Not accepted: owed again. Should that fail, the claim stays (never resent); the send's error is thrown.
    if (!(error instanceof MailOutcomeUnknown)) await endClaim().catch(() => undefined);
    throw error;
  }
  // Accepted but not recorded: the claim stays, never sent again.
  return endClaim('announcements').then(
    () => `sent_${language}` as const,
    () => 'unrecorded' as const,
  );
}

// A fault no retry fixes stops the pass: its other messages are let go; running the tool again queues them.
const STOPPING_FAULTS = new Set(['access_denied', 'missing_resource', 'code']);

// Kept across invocations, and read again after ten seconds for a changed rate or a stop.
const states = new Map<string, { state: passState.AnnouncementState | undefined; readAt: number }>();

async function stateOf(store: WaitlistStore, id: string, pass: number) {
  const cached = states.get(id);
  if (cached && Date.now() - cached.readAt < 10_000 && (cached.state?.pass ?? 0) >= pass) return cached.state;
  const state = passState.stateSchema.safeParse(
    await readItem(store, { email: announcementStateKey(id) }),
  ).data;
  states.set(id, { state, readAt: Date.now() });
  return state;
}

/** The mailer sends none of the pass's remaining mails (a fault no retry fixes, or the operator's `--stop`). */
export async function stopPass(store: WaitlistStore, state: passState.AnnouncementState, reason: string) {
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: state.email },
      UpdateExpression: 'SET stopReason = :reason',
      ConditionExpression: 'pass = :pass',
      ExpressionAttributeValues: { ':reason': reason, ':pass': state.pass },
    }),
  );
  states.delete(state.announcement.id);
}

/** `sendAt(rate)` paces at the bulk lane's rate, or the announcement's own when lower. */
export function announcementBatch(
  sender: MailSettings,
  sendAt: (rate: number) => Paced,
  timeShort: () => boolean,
  log: (line: Omit<MetricLine, 'service' | 'requestId'>) => void,
) {
  const { store } = sender;
  const tallies = new Map<string, { message: passState.RecipientMessage; tally: passState.Progress }>();

  return {
    async send(message: passState.RecipientMessage) {
      const key = `${message.id}#${message.pass}`;
      const { tally } = tallies.get(key) ?? { tally: passState.progressSchema.parse({}) };
      tallies.set(key, { message, tally });
      const state = await stateOf(store, message.id, message.pass);
      if (timeShort()) return 'retry';
      // Stopped, or queued again since (a newer pass has this person on the queue if still owed).
      if (!state || state.pass !== message.pass || state.stopReason !== undefined) {
        tally.not_owed++;
        return 'done';
      }
      try {
        const paced = sendAt(state.rate ?? Number.POSITIVE_INFINITY);
        const outcome = await deliverAnnouncement({ ...sender, ...paced }, state, message.key);
        tally[outcome]++;
        return outcome === 'refused' ? 'refused' : 'done';
      } catch (error) {
        if (error instanceof MailPaused) throw error;
        const faultClass = faultClassOf(error);
        const unknown = error instanceof MailOutcomeUnknown;
        log({
          message: unknown ? 'announcement outcome unknown' : 'announcement not sent',
          level: unknown || faultClass === 'throttled' ? 'WARN' : 'ERROR',
          counts: {},
          faultClass,
          fields: { announcement: message.id, errorName: errorNameOf(error) },
        });
        if (unknown) {
          tally.unrecorded++;
          return 'done';
        }
        tally.failed++;
        if (STOPPING_FAULTS.has(faultClass))
          await stopPass(store, state, `${faultClass}: ${errorNameOf(error)}`);
        return 'retry';
      }
    },
    async finish() {
      for (const { message, tally } of tallies.values()) {
        const entries = Object.entries(tally).filter(([, value]) => value > 0);
        if (entries.length === 0) continue;
        await updateIf(store, announcementProgressKey(message.id, message.pass), {
          UpdateExpression: `ADD ${entries.map(([name]) => `${name} :${name}`).join(', ')}`,
          ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
        });
      }
    },
  };
}
