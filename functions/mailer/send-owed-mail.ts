import { confirmationLink } from '#contract/confirmation';
import { checkEmail } from '#contract/email-address';
import { leaveLink } from '#contract/leave';
import { OWED_MAILS, PENDING_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { newConfirmationToken } from '../confirm/confirmation-token';
import { leaveToken, newLinkKeys } from '../leave/leave-token';
import { ensureLinkKeys } from '../store/link-keys';
import { readItem, updateIf } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';
import { type MailJob, owedRequest } from './mail-job';
import { confirmationMail, leaveLinkMail, mailboxAddress } from './mail-layout';
import { type MailboxSuppression, mailboxSuppression, mayMail } from './mail-limit';
import type { MailSettings, OutgoingMail } from './mail-transport';

// The record is read when the mail goes: a request replaced or already sent (a queue may hand a message over
// twice) sends nothing. A mail's Message-ID comes from its request, so the outbox keeps a repeat as one file.

export interface RequestMailer extends MailSettings {
  /** Sends at the pace, waiting out throttling; throws when the mail did not go. */
  send(mail: OutgoingMail): Promise<void>;
}

/** `suppressed` and `refused` (by SES, for good) go to the dead-letter queue. */
export type RequestOutcome =
  | { outcome: 'sent'; lagMs?: number }
  | { outcome: 'superseded' | 'limited' }
  | { outcome: 'suppressed' | 'refused'; errorName?: string };

export async function sendRequestedMail(
  mailer: RequestMailer,
  job: MailJob,
  now = () => new Date(),
): Promise<RequestOutcome> {
  const { store, mailFrom } = mailer;
  const record = (await readItem(store, { email: job.key })) as WaitlistRecord | undefined;
  const requestId = owedRequest(record, job.kind);
  if (!record || requestId !== job.requestId) return { outcome: 'superseded' };
  const at = now();
  const fields = OWED_MAILS[job.kind];
  /** Marks the request done (sent, or needing none); a newer request is left owed. */
  const notOwed = (suppression?: MailboxSuppression) =>
    updateIf(store, record.email, {
      // A record takes its mailbox's suppression (another spelling bounced): it asks for no more mail.
      UpdateExpression: `SET ${fields.done} = :id${suppression ? ', mailSuppressed = if_not_exists(mailSuppressed, :reason), mailSuppressedAt = if_not_exists(mailSuppressedAt, :at)' : ''}`,
      ConditionExpression: `${fields.asked} = :id`,
      ExpressionAttributeValues: {
        ':id': requestId,
        ...(suppression ? { ':reason': suppression.reason, ':at': suppression.at } : {}),
      },
    });
  // No mail, and none owed, to a suppressed mailbox, one past its limit, or an address today's rule refuses
  // (kept from before it: dead-lettered rather than tried again for days).
  const suppression = record.mailSuppressed
    ? undefined
    : await mailboxSuppression(mailer.limits, record.email);
  if (record.mailSuppressed || suppression) {
    await notOwed(suppression);
    return { outcome: 'suppressed' };
  }
  if (!(await mayMail(mailer.limits, record.email, requestId, { now: at }))) {
    await notOwed();
    return { outcome: 'limited' };
  }
  if (!checkEmail(record.emailAsEntered).ok) {
    await notOwed();
    return { outcome: 'refused', errorName: 'AddressRefused' };
  }
  const messageId = `${requestId}@${mailFrom.slice(mailFrom.lastIndexOf('@') + 1)}`;
  const envelope = { ...mailer, to: record.emailAsEntered, language: record.language, now: at, messageId };
  let mail: { raw: string; confirmUrl?: string; sent(): Promise<unknown> };
  if (job.kind === 'leave-link') {
    // Still this request and not sent yet (a second copy of the job finds it sent).
    const keys = await ensureLinkKeys(store, record.email, {
      onlyIf: {
        condition:
          'leaveMailRequestId = :id AND (attribute_not_exists(leaveMailedRequestId) OR leaveMailedRequestId <> :id)',
        values: { ':id': requestId },
      },
    });
    if (!keys) return { outcome: 'superseded' };
    const leaveUrl = leaveLink(mailer.siteUrl, record.language, leaveToken(keys.linkId, keys.leaveKey));
    mail = { raw: leaveLinkMail({ ...envelope, leaveUrl }).raw, sent: notOwed };
  } else {
    const keys =
      record.linkId !== undefined && record.leaveKey !== undefined
        ? { linkId: record.linkId, leaveKey: record.leaveKey }
        : ((await ensureLinkKeys(store, record.email)) ?? newLinkKeys());
    const token = newConfirmationToken(keys.linkId, at);
    const earlier = record.pendingTokenHash;
    // Claims the request with this token's hash in flight, unless a newer request or a second copy of the job
    // came first. An earlier hash in flight joins the mailed tokens: that mail may have gone out.
    const claimed = await updateIf(store, record.email, {
      UpdateExpression: `SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash, leaveKey = if_not_exists(leaveKey, :leaveKey)${earlier ? ', mailTokenHashes = list_append(if_not_exists(mailTokenHashes, :none), :earlier)' : ''}`,
      ConditionExpression: `mailRequestId = :id AND #status = :pending AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> :id) AND (attribute_not_exists(linkId) OR linkId = :linkId) AND ${earlier ? 'pendingTokenHash = :earlierHash' : 'attribute_not_exists(pendingTokenHash)'}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':linkId': keys.linkId,
        ':linkHash': token.linkHash,
        ':hash': token.hash,
        ':leaveKey': keys.leaveKey,
        ':id': requestId,
        ':pending': 'pending',
        ...(earlier ? { ':none': [], ':earlier': [earlier], ':earlierHash': earlier } : {}),
      },
      ReturnValues: 'ALL_NEW',
    });
    if (!claimed) return { outcome: 'superseded' };
    const leaveKey = (claimed.Attributes?.leaveKey as string | undefined) ?? keys.leaveKey;
    const confirmUrl = confirmationLink(mailer.siteUrl, record.language, token.token);
    const leaveUrl = leaveLink(mailer.siteUrl, record.language, leaveToken(keys.linkId, leaveKey));
    mail = {
      raw: confirmationMail({ ...envelope, confirmUrl, leaveUrl, validDays: PENDING_DAYS }).raw,
      confirmUrl,
      // Its token joins the mailed tokens (a newer request stays owed) and the request is done.
      sent: () =>
        updateIf(store, record.email, {
          UpdateExpression:
            'SET mailedRequestId = :id, mailTokenHashes = list_append(if_not_exists(mailTokenHashes, :none), :hashes) REMOVE pendingTokenHash',
          ConditionExpression: 'pendingTokenHash = :hash',
          ExpressionAttributeValues: {
            ':id': requestId,
            ':hash': token.hash,
            ':none': [],
            ':hashes': [token.hash],
          },
        }),
    };
  }
  try {
    await mailer.send({
      from: mailFrom,
      to: mailboxAddress(record.emailAsEntered),
      raw: mail.raw,
      confirmUrl: mail.confirmUrl,
      kind: job.kind,
      messageId,
    });
  } catch (error) {
    // Refused for good: sending again cannot change it.
    if (faultClassOf(error) !== 'invalid_request') throw error;
    await notOwed();
    return { outcome: 'refused', errorName: (error as Error).name };
  }
  await mail.sent();
  const asked = Date.parse(record[fields.at] ?? '');
  return { outcome: 'sent', lagMs: Number.isNaN(asked) ? undefined : Math.max(0, now().getTime() - asked) };
}
