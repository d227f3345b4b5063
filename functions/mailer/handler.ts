import { randomUUID } from 'node:crypto';
import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { confirmationLink } from '#contract/confirmation';
import { PENDING_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { newConfirmationToken } from '../confirm/confirmation-token';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { type FaultClass, faultClassOf } from '../telemetry/fault-class';
import { METRIC, writeMetricLine } from '../telemetry/metrics';
import { confirmationMail, mailboxAddress } from './confirmation-mail';
import { type MailTransport, outboxTransport, sesTransport } from './mail-transport';

/**
 * Sends the confirmation mails the waitlist asks for. It reads the table's stream: a pending record whose
 * latest mail request (mailRequestId) has not been sent yet gets a fresh token, stored as its hash, and a
 * mail with the link. The signup answer never waits for this. A mail that fails is reported back to the
 * stream, which retries it and, in the end, hands it to the dead-letter queue the operator watches.
 */

const store = storeFromEnvironment();
const siteUrl = requiredEnv('SITE_URL');
const mailFrom = requiredEnv('MAIL_FROM');
const contactEmail = requiredEnv('CONTACT_EMAIL');
const transport: MailTransport =
  process.env.MAIL_TRANSPORT === 'outbox'
    ? outboxTransport(requiredEnv('MAIL_OUTBOX_DIR'))
    : sesTransport(process.env.SES_CONFIGURATION_SET);

type MailOutcome = 'sent' | 'not_needed' | 'superseded';

/** The record as the stream shows it after the change, if it is one the mailer has to act on. */
function mailRequestIn(streamRecord: DynamoDBRecord): WaitlistRecord | undefined {
  const image = streamRecord.dynamodb?.NewImage;
  if (!image) return undefined;
  const record = unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord;
  const waiting =
    record.status === 'pending' && record.mailRequestId && record.mailRequestId !== record.mailedRequestId;
  return waiting ? record : undefined;
}

/**
 * Stores the new token's hash and marks the request as being sent, unless a newer request or a
 * confirmation came in meanwhile. A retry of a mail that failed makes a new token, so only the link in the
 * mail that went out works.
 */
async function claim(record: WaitlistRecord, tokenHash: string): Promise<boolean> {
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression: 'SET tokenHash = :hash, mailedRequestId = :id',
        ConditionExpression: 'mailRequestId = :id AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':hash': tokenHash, ':id': record.mailRequestId, ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

async function mailFor(streamRecord: DynamoDBRecord, now = new Date()): Promise<MailOutcome> {
  const record = mailRequestIn(streamRecord);
  if (!record) return 'not_needed';
  const { token, hash } = newConfirmationToken(now);
  if (!(await claim(record, hash))) return 'superseded';
  const confirmUrl = confirmationLink(siteUrl, record.language, token);
  const messageId = `${randomUUID()}@${mailFrom.slice(mailFrom.lastIndexOf('@') + 1)}`;
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
  return 'sent';
}

/**
 * One line per stream record, with its metrics: a mail sent or failed (with the fault's class). Never the
 * address, never the token.
 */
function log(
  outcome: MailOutcome | 'failed',
  requestId: string | undefined,
  fault?: { faultClass: FaultClass; errorName: string },
): void {
  writeMetricLine({
    service: 'mailer',
    message: 'confirmation mail',
    level: outcome === 'failed' ? 'ERROR' : 'INFO',
    counts:
      outcome === 'sent' ? { [METRIC.mailSent]: 1 } : outcome === 'failed' ? { [METRIC.mailFailed]: 1 } : {},
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
      log('failed', requestId, {
        faultClass: faultClassOf(error),
        errorName: error instanceof Error ? error.name : typeof error,
      });
      return { batchItemFailures: [{ itemIdentifier: streamRecord.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
