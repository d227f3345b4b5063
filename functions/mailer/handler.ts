import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { confirmationLink } from '#contract/confirmation';
import { leaveLink } from '#contract/leave';
import { PENDING_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { newConfirmationToken } from '../confirm/confirmation-token';
import { leaveToken, newLinkKeys } from '../leave/leave-token';
import { ensureLinkKeys } from '../store/link-keys';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, type FaultClass, faultClassOf } from '../telemetry/fault-class';
import { METRIC, type MetricName, writeMetricLine } from '../telemetry/metrics';
import { confirmationMail, mailboxAddress } from './confirmation-mail';
import { leaveLinkMail } from './leave-link-mail';
import { mayMail } from './mail-limit';
import { type MailTransport, outboxTransport, sesTransport } from './mail-transport';

/**
 * Sends the mails the waitlist asks for, read from the table's stream: the confirmation mail of a signup
 * (or of a later one of a pending address), and the leave-link mail the privacy page's form asks for.
 * A change that asks for a new mail is mailed once. A confirmation mail goes in three steps:
 * 1. claim: the record's link keys (made at its first mail of any kind) and the new token's hash, in
 *    flight, are stored, unless a newer request, a confirmation or a bounce came in meanwhile;
 * 2. send;
 * 3. mark it sent: the token joins the record's mailed tokens, and the request is done (mailedRequestId).
 * A failure at any step leaves the request owed: the stream retries the record, and in the end hands it to
 * the dead-letter queue the operator watches; on one machine the runner sends what is still owed at its
 * next start. A mail's Message-ID comes from its request, so a repeat of the same mail is recognisably
 * one mail (the local outbox replaces its file). A mailbox past its limit (mail-limit.ts), or one that
 * bounced or complained, gets no mail, and none is owed. Every mail carries the person's leave link. The
 * answers on the page never wait for this.
 */

const store = storeFromEnvironment();
const limits = { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') };
const siteUrl = requiredEnv('SITE_URL');
const mailFrom = requiredEnv('MAIL_FROM');
const contactEmail = requiredEnv('CONTACT_EMAIL');
const transport: MailTransport =
  process.env.MAIL_TRANSPORT === 'outbox'
    ? outboxTransport(requiredEnv('MAIL_OUTBOX_DIR'))
    : sesTransport(process.env.SES_CONFIGURATION_SET);

type MailOutcome = 'sent' | 'superseded' | 'limited' | 'suppressed';
type MailKind = 'confirmation' | 'leave-link';

type MailRequest = WaitlistRecord & { mailRequestId: string };
type LeaveLinkRequest = WaitlistRecord & { leaveMailRequestId: string };

/**
 * The mails a change asks for that are still owed: the record after it, and which kinds. A change that
 * kept the request it had (the mailer's own claim and mark, say) asks for nothing new: its mail is
 * already under way.
 */
function mailRequestsIn(streamRecord: DynamoDBRecord): { record: WaitlistRecord; kinds: MailKind[] } {
  const image = streamRecord.dynamodb?.NewImage;
  if (!image) return { record: {} as WaitlistRecord, kinds: [] };
  const record = unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord;
  const oldImage = streamRecord.dynamodb?.OldImage;
  const before = oldImage
    ? (unmarshall(oldImage as Record<string, AttributeValue>) as WaitlistRecord)
    : undefined;
  const kinds: MailKind[] = [];
  if (
    record.status === 'pending' &&
    record.mailRequestId !== undefined &&
    record.mailRequestId !== record.mailedRequestId &&
    record.mailRequestId !== before?.mailRequestId
  )
    kinds.push('confirmation');
  if (
    record.leaveMailRequestId !== undefined &&
    record.leaveMailRequestId !== record.leaveMailedRequestId &&
    record.leaveMailRequestId !== before?.leaveMailRequestId
  )
    kinds.push('leave-link');
  return { record, kinds };
}

/** Runs a conditional update: false when its condition does not hold. */
async function updateIf(command: UpdateCommand): Promise<boolean> {
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
 * record's latest and owed; the record's leave key as stored (kept if it had one). A retry of the same
 * request replaces the hash in flight: only mails that went out add to the record's list, so it stays as
 * short as the mails sent.
 */
async function claim(
  record: MailRequest,
  linkId: string,
  leaveKey: string,
  token: { hash: string; linkHash: string },
): Promise<string | undefined> {
  try {
    const { Attributes } = await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression:
          'SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash, leaveKey = if_not_exists(leaveKey, :leaveKey)',
        ConditionExpression:
          'mailRequestId = :id AND #status = :pending AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> :id) AND (attribute_not_exists(linkId) OR linkId = :linkId)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':linkId': linkId,
          ':linkHash': token.linkHash,
          ':hash': token.hash,
          ':leaveKey': leaveKey,
          ':id': record.mailRequestId,
          ':pending': 'pending',
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
function markSent(record: MailRequest, hash: string) {
  return updateIf(
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

/** Instead of sending: this request needs no mail, and none is owed. A newer request is left owed. */
function markNotOwed(record: MailRequest) {
  return updateIf(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: record.email },
      UpdateExpression: 'SET mailedRequestId = :id',
      ConditionExpression: 'mailRequestId = :id',
      ExpressionAttributeValues: { ':id': record.mailRequestId },
    }),
  );
}

const senderDomain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1);
const envelope = (record: WaitlistRecord, now: Date, requestId: string) => ({
  to: record.emailAsEntered,
  language: record.language,
  from: mailFrom,
  contactEmail,
  brandName: 'Mandje',
  now,
  messageId: `${requestId}@${senderDomain}`,
});

async function sendConfirmation(record: MailRequest, now: Date): Promise<MailOutcome> {
  if (record.mailSuppressed) {
    await markNotOwed(record);
    return 'suppressed';
  }
  if (!(await mayMail(limits, record.email, record.mailRequestId, { now }))) {
    await markNotOwed(record);
    return 'limited';
  }
  // Keys once made never change; when the stream's image has none, another mail may have made them since.
  const keys =
    record.linkId !== undefined && record.leaveKey !== undefined
      ? { linkId: record.linkId, leaveKey: record.leaveKey }
      : ((await ensureLinkKeys(store, record.email)) ?? newLinkKeys());
  const { linkId } = keys;
  const token = newConfirmationToken(linkId, now);
  const leaveKey = await claim(record, linkId, keys.leaveKey, token);
  if (leaveKey === undefined) return 'superseded';

  const confirmUrl = confirmationLink(siteUrl, record.language, token.token);
  const leaveUrl = leaveLink(siteUrl, record.language, leaveToken(linkId, leaveKey));
  const mail = confirmationMail({
    ...envelope(record, now, record.mailRequestId),
    confirmUrl,
    leaveUrl,
    validDays: PENDING_DAYS,
  });
  await transport.send({
    from: mailFrom,
    to: mailboxAddress(record.emailAsEntered),
    raw: mail.raw,
    confirmUrl,
    messageId: `${record.mailRequestId}@${senderDomain}`,
  });
  await markSent(record, token.hash);
  return 'sent';
}

/** Marks a leave-link request done: sent, or not to be sent. A newer request is left owed. */
function markLeaveLinkDone(record: LeaveLinkRequest) {
  return updateIf(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: record.email },
      UpdateExpression: 'SET leaveMailedRequestId = :id',
      ConditionExpression: 'leaveMailRequestId = :id',
      ExpressionAttributeValues: { ':id': record.leaveMailRequestId },
    }),
  );
}

/** The leave-link mail the privacy page's form asked for, within the mailbox's limit like any other. */
async function sendLeaveLink(record: LeaveLinkRequest, now: Date): Promise<MailOutcome> {
  if (record.mailSuppressed) {
    await markLeaveLinkDone(record);
    return 'suppressed';
  }
  if (!(await mayMail(limits, record.email, record.leaveMailRequestId, { now, budget: 'leave-link' }))) {
    await markLeaveLinkDone(record);
    return 'limited';
  }
  // Still this request, and not sent yet (a retry of the stream record finds it sent); the keys with it.
  const keys = await ensureLinkKeys(store, record.email, {
    onlyIf: {
      condition:
        'leaveMailRequestId = :id AND (attribute_not_exists(leaveMailedRequestId) OR leaveMailedRequestId <> :id)',
      values: { ':id': record.leaveMailRequestId },
    },
  });
  // The person left meanwhile, or a newer request or this one's mail came first: nothing to send.
  if (!keys) return 'superseded';
  const leaveUrl = leaveLink(siteUrl, record.language, leaveToken(keys.linkId, keys.leaveKey));
  const mail = leaveLinkMail({ ...envelope(record, now, record.leaveMailRequestId), leaveUrl });
  await transport.send({
    from: mailFrom,
    to: mailboxAddress(record.emailAsEntered),
    raw: mail.raw,
    kind: 'leave-link',
    messageId: `${record.leaveMailRequestId}@${senderDomain}`,
  });
  await markLeaveLinkDone(record);
  return 'sent';
}

const OUTCOME_METRIC: Partial<Record<MailOutcome, MetricName>> = {
  sent: METRIC.mailSent,
  limited: METRIC.mailLimited,
  suppressed: METRIC.mailSuppressed,
};

/**
 * One line per mail, with its metrics: sent, held back, or failed (with the fault's class). Never the
 * address, never a token.
 */
function log(
  kind: MailKind,
  outcome: MailOutcome | 'failed',
  requestId: string | undefined,
  fault?: { faultClass: FaultClass; errorName: string },
): void {
  const metric = outcome === 'failed' ? METRIC.mailFailed : OUTCOME_METRIC[outcome];
  writeMetricLine({
    service: 'mailer',
    message: kind === 'confirmation' ? 'confirmation mail' : 'leave-link mail',
    level: outcome === 'failed' ? 'ERROR' : 'INFO',
    counts: metric ? { [metric]: 1 } : {},
    faultClass: fault?.faultClass,
    fields: { outcome, errorName: fault?.errorName },
    requestId,
  });
}

/**
 * Mails in stream order. At the first failure it stops and reports that record: Lambda retries the batch
 * from there, so the records after it are not mailed twice.
 */
export async function handler(
  event: DynamoDBStreamEvent,
  context?: Pick<Context, 'awsRequestId'>,
): Promise<DynamoDBBatchResponse> {
  const requestId = context?.awsRequestId;
  for (const streamRecord of event.Records) {
    const { record, kinds } = mailRequestsIn(streamRecord);
    for (const kind of kinds) {
      const now = new Date();
      try {
        const outcome =
          kind === 'confirmation'
            ? await sendConfirmation(record as MailRequest, now)
            : await sendLeaveLink(record as LeaveLinkRequest, now);
        log(kind, outcome, requestId);
      } catch (error) {
        log(kind, 'failed', requestId, { faultClass: faultClassOf(error), errorName: errorNameOf(error) });
        return { batchItemFailures: [{ itemIdentifier: streamRecord.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
  }
  return { batchItemFailures: [] };
}
