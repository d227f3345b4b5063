import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { confirmationLink } from '#contract/confirmation';
import { PENDING_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { newConfirmationToken, newLinkId } from '../confirm/confirmation-token';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, type FaultClass, faultClassOf } from '../telemetry/fault-class';
import { METRIC, type MetricName, writeMetricLine } from '../telemetry/metrics';
import { confirmationMail, mailboxAddress } from './confirmation-mail';
import { mayMail } from './mail-limit';
import { type MailTransport, outboxTransport, sesTransport } from './mail-transport';

/**
 * Sends the confirmation mails the waitlist asks for. It reads the table's stream: a change that asks for a
 * new mail (a signup, or a later one of a pending address) is mailed once, in three steps:
 * 1. claim: the record's link id (made at its first mail) and the new token's hash, in flight, are
 *    stored, unless a newer request, a confirmation or a bounce came in meanwhile;
 * 2. send;
 * 3. mark it sent: the token joins the record's mailed tokens, and the request is done (mailedRequestId).
 * A failure at any step leaves the request owed: the stream retries the record, and in the end hands it to
 * the dead-letter queue the operator watches; on one machine the runner sends what is still owed at its
 * next start. The mail's Message-ID comes from the request, so a repeat of the same mail is recognisably
 * one mail (the local outbox replaces its file). A mailbox past its limit (mail-limit.ts), or one that
 * bounced or complained, gets no mail, and none is owed. The signup answer never waits for this.
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

type MailOutcome = 'sent' | 'not_needed' | 'superseded' | 'limited' | 'suppressed';

type MailRequest = WaitlistRecord & { mailRequestId: string };

/**
 * The record after the change, if the change asked for a mail that is still owed. A change that kept the
 * request it had (the mailer's own claim and mark, say) asks for nothing new: its mail is already under way.
 */
function mailRequestIn(streamRecord: DynamoDBRecord): MailRequest | undefined {
  const image = streamRecord.dynamodb?.NewImage;
  if (!image) return undefined;
  const record = unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord;
  const before = streamRecord.dynamodb?.OldImage;
  const earlierRequest = before
    ? unmarshall(before as Record<string, AttributeValue>).mailRequestId
    : undefined;
  const owed =
    record.status === 'pending' &&
    record.mailRequestId !== undefined &&
    record.mailRequestId !== record.mailedRequestId &&
    record.mailRequestId !== earlierRequest;
  return owed ? (record as MailRequest) : undefined;
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
 * Step 1: the link id, and this token's hash as the one in flight, while the request is still the
 * record's latest and owed. A retry of the same request replaces the hash in flight: only mails that went
 * out add to the record's list, so it stays as short as the mails sent.
 */
function claim(record: MailRequest, linkId: string, token: { hash: string; linkHash: string }) {
  return updateIf(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: record.email },
      UpdateExpression: 'SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash',
      ConditionExpression:
        'mailRequestId = :id AND #status = :pending AND attribute_not_exists(mailSuppressed) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> :id) AND (attribute_not_exists(linkId) OR linkId = :linkId)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':linkId': linkId,
        ':linkHash': token.linkHash,
        ':hash': token.hash,
        ':id': record.mailRequestId,
        ':pending': 'pending',
      },
    }),
  );
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

async function mailFor(streamRecord: DynamoDBRecord, now = new Date()): Promise<MailOutcome> {
  const record = mailRequestIn(streamRecord);
  if (!record) return 'not_needed';
  if (record.mailSuppressed) {
    await markNotOwed(record);
    return 'suppressed';
  }
  if (!(await mayMail(limits, record.email, record.mailRequestId, { now }))) {
    await markNotOwed(record);
    return 'limited';
  }
  const linkId = record.linkId ?? newLinkId();
  const token = newConfirmationToken(linkId, now);
  if (!(await claim(record, linkId, token))) return 'superseded';

  const confirmUrl = confirmationLink(siteUrl, record.language, token.token);
  const messageId = `${record.mailRequestId}@${mailFrom.slice(mailFrom.lastIndexOf('@') + 1)}`;
  const mail = confirmationMail({
    to: record.emailAsEntered,
    language: record.language,
    confirmUrl,
    from: mailFrom,
    contactEmail,
    brandName: 'Mandje',
    validDays: PENDING_DAYS,
    now,
    messageId,
  });
  await transport.send({
    from: mailFrom,
    to: mailboxAddress(record.emailAsEntered),
    raw: mail.raw,
    confirmUrl,
    messageId,
  });
  await markSent(record, token.hash);
  return 'sent';
}

const OUTCOME_METRIC: Partial<Record<MailOutcome, MetricName>> = {
  sent: METRIC.mailSent,
  limited: METRIC.mailLimited,
  suppressed: METRIC.mailSuppressed,
};

/**
 * One line per stream record, with its metrics: a mail sent, held back, or failed (with the fault's
 * class). Never the address, never the token.
 */
function log(
  outcome: MailOutcome | 'failed',
  requestId: string | undefined,
  fault?: { faultClass: FaultClass; errorName: string },
): void {
  const metric = outcome === 'failed' ? METRIC.mailFailed : OUTCOME_METRIC[outcome];
  writeMetricLine({
    service: 'mailer',
    message: 'confirmation mail',
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
    try {
      log(await mailFor(streamRecord), requestId);
    } catch (error) {
      log('failed', requestId, { faultClass: faultClassOf(error), errorName: errorNameOf(error) });
      return { batchItemFailures: [{ itemIdentifier: streamRecord.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
