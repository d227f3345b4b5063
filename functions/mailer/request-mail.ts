import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { confirmationLink } from '#contract/confirmation';
import { leaveLink } from '#contract/leave';
import { PENDING_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { newConfirmationToken } from '../confirm/confirmation-token';
import { leaveToken, newLinkKeys } from '../leave/leave-token';
import { ensureLinkKeys } from '../store/link-keys';
import type { WaitlistStore } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';
import { confirmationMail, mailboxAddress } from './confirmation-mail';
import { leaveLinkMail } from './leave-link-mail';
import { type MailJob, type MailKind, owedRequest, requestedAt } from './mail-job';
import { mayMail } from './mail-limit';
import type { MailSettings, OutgoingMail } from './mail-transport';
import { type MailboxSuppression, mailboxSuppression } from './mailbox-suppression';

/**
 * The mails one person asked for (a signup's confirmation mail, the privacy page's leave-link mail), sent
 * from the mail queue. The record is read when the mail goes: a request that a newer one replaced, or that
 * was sent already (the queue may hand a message over twice), sends nothing. A confirmation mail goes in
 * three steps:
 * 1. claim: the record's link keys (made at its first mail of any kind) and the new token's hash, in
 *    flight, are stored, unless a newer request, a confirmation or a bounce came in meanwhile;
 * 2. send, at its lane's pace (pace.ts);
 * 3. mark it sent: the token joins the record's mailed tokens, and the request is done (mailedRequestId).
 * A failure at any step leaves the request owed: the queue hands it over again. A mailbox past its limit
 * (mail-limit.ts: confirmations and leave links share it) gets no mail, and none is owed; a mailbox that
 * bounced or complained under any spelling (mailbox-suppression.ts), or a mail SES refuses for good, gets
 * none either and goes to the dead-letter queue (the record then carries the mailbox's mark as well). A
 * mail's Message-ID comes from its request, so the local outbox keeps a repeat of the same mail as one file
 * (SES gives every mail it accepts a Message-ID of its own). Every mail carries the person's leave link.
 */

export interface RequestMailer extends MailSettings {
  /** Sends at the pace, waiting out throttling; throws when the mail did not go. */
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * What became of a job: sent (with its lag), or not: not owed any more, past the mailbox's limit, or
 * never sendable: `suppressed` (the mailbox bounced or complained) and `refused` (SES refused the mail for
 * good) go to the dead-letter queue.
 */
export type RequestOutcome =
  | { outcome: 'sent'; lagMs?: number }
  | { outcome: 'superseded' | 'limited' }
  | { outcome: 'suppressed' | 'refused'; errorName?: string };

/**
 * A refusal by the mail service that sending again cannot change: a request it refuses as it is (an address
 * it will not take). A fault of the account's set-up is none: the mail stays owed (mail-pause.ts).
 */
export class MailRefused extends Error {
  override name = 'MailRefused';
  constructor(readonly refusal: unknown) {
    super('the mail service refused the mail for good');
  }
}

/** Sends `mail` with `send`; a refusal for good (the request is invalid) becomes MailRefused. */
export async function sendOrRefuse(send: (mail: OutgoingMail) => Promise<void>, mail: OutgoingMail) {
  try {
    await send(mail);
  } catch (error) {
    if (faultClassOf(error) === 'invalid_request') throw new MailRefused(error);
    throw error;
  }
}

type ConfirmationRequest = WaitlistRecord & { mailRequestId: string };
type LeaveLinkRequest = WaitlistRecord & { leaveMailRequestId: string };

/** Runs a conditional update: false when its condition does not hold. */
async function updateIf(store: WaitlistStore, command: UpdateCommand): Promise<boolean> {
  try {
    await store.client.send(command);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Step 1: the link keys, and this token's hash as the one in flight, while the request is still the
 * record's latest and owed, and the hash in flight is still the one read (another copy of the same job,
 * which a queue may hand over twice, then finds its claim taken and sends nothing). A hash in flight from
 * an earlier attempt joins the mailed tokens: that mail may have gone out (SES accepted it, the mark
 * failed), and its link must go on working. Returns the record's leave key as stored (kept if it had one).
 */
async function claim(
  store: WaitlistStore,
  record: ConfirmationRequest,
  linkId: string,
  leaveKey: string,
  token: { hash: string; linkHash: string },
): Promise<string | undefined> {
  const earlier = record.pendingTokenHash;
  try {
    const { Attributes } = await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression: `SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash, leaveKey = if_not_exists(leaveKey, :leaveKey)${earlier ? ', mailTokenHashes = list_append(if_not_exists(mailTokenHashes, :none), :earlier)' : ''}`,
        ConditionExpression: `mailRequestId = :id AND #status = :pending AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> :id) AND (attribute_not_exists(linkId) OR linkId = :linkId) AND ${earlier ? 'pendingTokenHash = :earlierHash' : 'attribute_not_exists(pendingTokenHash)'}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':linkId': linkId,
          ':linkHash': token.linkHash,
          ':hash': token.hash,
          ':leaveKey': leaveKey,
          ':id': record.mailRequestId,
          ':pending': 'pending',
          ...(earlier ? { ':none': [], ':earlier': [earlier], ':earlierHash': earlier } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    // The key stored, which is the one given unless the record had one already.
    return typeof Attributes?.leaveKey === 'string' ? Attributes.leaveKey : leaveKey;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Step 3: the mail went out. Its token joins the record's mailed tokens, and its request is done. Even if
 * a newer request came in meanwhile (it stays owed), the link just sent keeps working.
 */
function markSent(store: WaitlistStore, record: ConfirmationRequest, hash: string) {
  return updateIf(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: record.email },
      UpdateExpression:
        'SET mailedRequestId = :id, mailTokenHashes = list_append(if_not_exists(mailTokenHashes, :none), :hashes) REMOVE pendingTokenHash',
      ConditionExpression: 'pendingTokenHash = :hash',
      ExpressionAttributeValues: {
        ':id': record.mailRequestId,
        ':hash': hash,
        ':none': [],
        ':hashes': [hash],
      },
    }),
  );
}

/**
 * Also sets the mailbox's suppression on a record that lacks it (another spelling bounced): the record then
 * asks for no more mail, and the operator's tools show it as bounced or complained.
 */
const suppressionMark = (suppression: MailboxSuppression | undefined) =>
  suppression
    ? {
        set: ', mailSuppressed = if_not_exists(mailSuppressed, :reason), mailSuppressedAt = if_not_exists(mailSuppressedAt, :at)',
        values: { ':reason': suppression.reason, ':at': suppression.at },
      }
    : { set: '', values: {} };

/**
 * Marks the request of `kind` done: its mail sent, or needing none (the mailbox's suppression set with it,
 * when given). A newer request is left owed.
 */
function markRequestDone(
  store: WaitlistStore,
  kind: MailKind,
  email: string,
  requestId: string,
  suppression?: MailboxSuppression,
) {
  const [asked, done] =
    kind === 'confirmation'
      ? ['mailRequestId', 'mailedRequestId']
      : ['leaveMailRequestId', 'leaveMailedRequestId'];
  const mark = suppressionMark(suppression);
  return updateIf(
    store,
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email },
      UpdateExpression: `SET ${done} = :id${mark.set}`,
      ConditionExpression: `${asked} = :id`,
      ExpressionAttributeValues: { ':id': requestId, ...mark.values },
    }),
  );
}

/**
 * The address a requested mail may go to, or what stops it before it is built, once `markDone` has marked
 * the request as no longer owed: the mailbox bounced or complained (the record takes the mark), it has had
 * its mails for the day, or today's rule refuses the stored address (kept from before a stricter rule:
 * such a mail can never go, and is dead-lettered rather than tried again for days).
 */
async function addressOrStop(
  mailer: RequestMailer,
  record: WaitlistRecord,
  requestId: string,
  now: Date,
  markDone: (suppression?: MailboxSuppression) => Promise<unknown>,
): Promise<{ to: string } | { stop: RequestOutcome }> {
  const suppression = record.mailSuppressed
    ? undefined
    : await mailboxSuppression(mailer.limits, record.email);
  if (record.mailSuppressed || suppression) {
    await markDone(suppression);
    return { stop: { outcome: 'suppressed' } };
  }
  if (!(await mayMail(mailer.limits, record.email, requestId, { now }))) {
    await markDone();
    return { stop: { outcome: 'limited' } };
  }
  try {
    return { to: mailboxAddress(record.emailAsEntered) };
  } catch {
    await markDone();
    return { stop: { outcome: 'refused', errorName: 'AddressRefused' } };
  }
}

/** Sends the mail; a refusal for good marks the request done and is the outcome, any other error is thrown. */
async function sendOrMarkRefused(
  mailer: RequestMailer,
  mail: OutgoingMail,
  markDone: () => Promise<unknown>,
): Promise<RequestOutcome | undefined> {
  try {
    await sendOrRefuse(mailer.send, mail);
    return undefined;
  } catch (error) {
    if (!(error instanceof MailRefused)) throw error;
    await markDone();
    return { outcome: 'refused', errorName: (error.refusal as Error).name };
  }
}

const senderDomain = (mailFrom: string) => mailFrom.slice(mailFrom.lastIndexOf('@') + 1);

function envelope(mailer: RequestMailer, record: WaitlistRecord, now: Date, requestId: string) {
  return {
    to: record.emailAsEntered,
    language: record.language,
    from: mailer.mailFrom,
    contactEmail: mailer.contactEmail,
    brandName: mailer.brandName,
    now,
    messageId: `${requestId}@${senderDomain(mailer.mailFrom)}`,
  };
}

async function sendConfirmation(
  mailer: RequestMailer,
  record: ConfirmationRequest,
  now: Date,
): Promise<RequestOutcome> {
  const { store } = mailer;
  const notOwed = (suppression?: MailboxSuppression) =>
    markRequestDone(store, 'confirmation', record.email, record.mailRequestId, suppression);
  const address = await addressOrStop(mailer, record, record.mailRequestId, now, notOwed);
  if ('stop' in address) return address.stop;
  // Keys once made never change; a record that has none yet gets them now, or takes those made meanwhile.
  const keys =
    record.linkId !== undefined && record.leaveKey !== undefined
      ? { linkId: record.linkId, leaveKey: record.leaveKey }
      : ((await ensureLinkKeys(store, record.email)) ?? newLinkKeys());
  const { linkId } = keys;
  const token = newConfirmationToken(linkId, now);
  const leaveKey = await claim(store, record, linkId, keys.leaveKey, token);
  if (leaveKey === undefined) return { outcome: 'superseded' };

  const confirmUrl = confirmationLink(mailer.siteUrl, record.language, token.token);
  const leaveUrl = leaveLink(mailer.siteUrl, record.language, leaveToken(linkId, leaveKey));
  const mail = confirmationMail({
    ...envelope(mailer, record, now, record.mailRequestId),
    confirmUrl,
    leaveUrl,
    validDays: PENDING_DAYS,
  });
  const refused = await sendOrMarkRefused(
    mailer,
    {
      from: mailer.mailFrom,
      to: address.to,
      raw: mail.raw,
      confirmUrl,
      kind: 'confirmation',
      messageId: `${record.mailRequestId}@${senderDomain(mailer.mailFrom)}`,
    },
    notOwed,
  );
  if (refused) return refused;
  await markSent(store, record, token.hash);
  return { outcome: 'sent' };
}

/** The leave-link mail the privacy page's form asked for, within the mailbox's limit like any other mail. */
async function sendLeaveLink(
  mailer: RequestMailer,
  record: LeaveLinkRequest,
  now: Date,
): Promise<RequestOutcome> {
  const { store } = mailer;
  const notOwed = (suppression?: MailboxSuppression) =>
    markRequestDone(store, 'leave-link', record.email, record.leaveMailRequestId, suppression);
  const address = await addressOrStop(mailer, record, record.leaveMailRequestId, now, notOwed);
  if ('stop' in address) return address.stop;
  // Still this request, and not sent yet (a second delivery of the job finds it sent); the keys with it.
  const keys = await ensureLinkKeys(store, record.email, {
    onlyIf: {
      condition:
        'leaveMailRequestId = :id AND (attribute_not_exists(leaveMailedRequestId) OR leaveMailedRequestId <> :id)',
      values: { ':id': record.leaveMailRequestId },
    },
  });
  // The person left meanwhile, or a newer request or this one's mail came first: nothing to send.
  if (!keys) return { outcome: 'superseded' };
  const leaveUrl = leaveLink(mailer.siteUrl, record.language, leaveToken(keys.linkId, keys.leaveKey));
  const mail = leaveLinkMail({ ...envelope(mailer, record, now, record.leaveMailRequestId), leaveUrl });
  const refused = await sendOrMarkRefused(
    mailer,
    {
      from: mailer.mailFrom,
      to: address.to,
      raw: mail.raw,
      kind: 'leave-link',
      messageId: `${record.leaveMailRequestId}@${senderDomain(mailer.mailFrom)}`,
    },
    notOwed,
  );
  if (refused) return refused;
  await notOwed();
  return { outcome: 'sent' };
}

/** Sends the mail `job` asks for, if the record still owes it; throws when it should be tried again. */
export async function sendRequestedMail(
  mailer: RequestMailer,
  job: MailJob,
  now: () => Date = () => new Date(),
): Promise<RequestOutcome> {
  const { Item } = await mailer.store.client.send(
    new GetCommand({ TableName: mailer.store.tableName, Key: { email: job.key }, ConsistentRead: true }),
  );
  const record = Item as WaitlistRecord | undefined;
  // Replaced by a newer request (its own job sends it), sent already, confirmed, or gone.
  if (!record || owedRequest(record, job.kind) !== job.requestId) return { outcome: 'superseded' };
  const result =
    job.kind === 'confirmation'
      ? await sendConfirmation(mailer, record as ConfirmationRequest, now())
      : await sendLeaveLink(mailer, record as LeaveLinkRequest, now());
  if (result.outcome !== 'sent') return result;
  const asked = requestedAt(record, job.kind);
  return asked ? { outcome: 'sent', lagMs: Math.max(0, now().getTime() - asked.getTime()) } : result;
}
