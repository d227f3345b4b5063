import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { BRAND_NAME } from '#contract/brand';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { mailSender } from './mail-sender';
import { sesTransport } from './mail-transport';
import { type SendSlots, sendSlots } from './send-slots';

/**
 * The mailer on AWS: mail-sender.ts reading the priority queue (confirmation and leave-link mails, put
 * there by request-handler.ts from the table's stream) and the bulk queue (the announcement, put there by
 * the planner), sending through SES. Its pace is SES's maximum send rate: the deploy setting
 * MAIL_MAX_SEND_RATE when given, else what SES's GetAccount says, read again every ten minutes.
 */

const store = storeFromEnvironment();
const limits = { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') };
const deadLetterQueueUrl = requiredEnv('DEAD_LETTER_QUEUE_URL');
const sqs = new SQSClient({ maxAttempts: 5 });
const ses = new SESv2Client({ maxAttempts: 3 });

const RATE_MAX_AGE_MS = 10 * 60_000;
let pace: { slots: SendSlots; readAt: number } | undefined;

async function maxSendRate(): Promise<number> {
  const setting = Number(process.env.MAIL_MAX_SEND_RATE);
  if (setting > 0) return setting;
  const { SendQuota } = await ses.send(new GetAccountCommand({}));
  const rate = SendQuota?.MaxSendRate;
  // An account SES reports no rate for sends at the sandbox's: one a second.
  return rate && rate > 0 ? rate : 1;
}

async function slots(): Promise<SendSlots> {
  if (pace && Date.now() - pace.readAt < RATE_MAX_AGE_MS) return pace.slots;
  try {
    pace = { slots: sendSlots(limits, await maxSendRate()), readAt: Date.now() };
  } catch (error) {
    // SES did not answer: the last rate known holds until it does.
    if (!pace) throw error;
  }
  return pace.slots;
}

/** SQS's queue URL from a queue's ARN (arn:aws:sqs:region:account:name). */
function queueUrlOf(arn: string): string {
  const [, , , region, account, name] = arn.split(':');
  return `https://sqs.${region}.amazonaws.com/${account}/${name}`;
}

const send = mailSender({
  store,
  limits,
  siteUrl: requiredEnv('SITE_URL'),
  mailFrom: requiredEnv('MAIL_FROM'),
  contactEmail: requiredEnv('CONTACT_EMAIL'),
  brandName: BRAND_NAME,
  transport: sesTransport(process.env.SES_CONFIGURATION_SET),
  slots,
  queue: {
    async deadLetter(record, mailClass, reason) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: deadLetterQueueUrl,
          MessageBody: record.body,
          MessageAttributes: {
            class: { DataType: 'String', StringValue: mailClass },
            reason: { DataType: 'String', StringValue: reason },
          },
        }),
      );
    },
    async retryAfter(record, seconds) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrlOf(record.eventSourceARN),
          ReceiptHandle: record.receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
  },
});

export const handler = (
  event: SQSEvent,
  context: Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
) => send(event, context);
