import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BRAND_NAME } from '#contract/brand';
import { BULK_SHARE, MAILER_CONCURRENCY } from '#contract/mail-pace';
import { storeFromEnvironment } from '../store/store-client';
import { requiredEnv } from '../strict-input';
import { dailyQuota } from './mail-pause';
import { type MailPace, mailSender } from './mail-sender';
import { sesTransport } from './mail-transport';

const store = storeFromEnvironment();
const deadLetterQueueUrl = requiredEnv('DEAD_LETTER_QUEUE_URL');
// The region's SQS endpoint (the queue URL's own host on AWS), or AWS_ENDPOINT_URL where one is set.
const sqs = new SQSClient({ maxAttempts: 5, useQueueUrlAsEndpoint: false });
const ses = new SESv2Client({ maxAttempts: 3 });

let account: { pace: MailPace; readAt: number } | undefined;

// SES's rate (unless MAIL_MAX_SEND_RATE names one) and quota, read again after ten minutes, or after five
// seconds once the quota's bound says only the reserve may be left.
async function pace(): Promise<MailPace> {
  const maxAge = account?.pace.quota?.reserveReached ? 5_000 : 10 * 60_000;
  if (account && Date.now() - account.readAt < maxAge) return account.pace;
  try {
    const { SendQuota } = await ses.send(new GetAccountCommand({}));
    const setting = Number(process.env.MAIL_MAX_SEND_RATE);
    const reported = SendQuota?.MaxSendRate;
    // An account SES reports no rate for sends at the sandbox's: one a second.
    const rate = setting > 0 && Number.isFinite(setting) ? setting : reported && reported > 0 ? reported : 1;
    const quota =
      SendQuota?.Max24HourSend === undefined
        ? undefined
        : dailyQuota(SendQuota.Max24HourSend, SendQuota.SentLast24Hours ?? 0, rate * (1 + BULK_SHARE));
    account = { pace: { rate, instances: MAILER_CONCURRENCY, quota }, readAt: Date.now() };
  } catch (error) {
    // SES did not answer: the last pace and quota known hold until it does.
    if (!account) throw error;
  }
  return account.pace;
}

export const handler = mailSender({
  store,
  limits: { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') },
  siteUrl: requiredEnv('SITE_URL'),
  mailFrom: requiredEnv('MAIL_FROM'),
  contactEmail: requiredEnv('CONTACT_EMAIL'),
  brandName: BRAND_NAME,
  transport: sesTransport(process.env.SES_CONFIGURATION_SET),
  pace,
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
      const [, , , region, account, name] = record.eventSourceARN.split(':');
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: `https://sqs.${region}.amazonaws.com/${account}/${name}`,
          ReceiptHandle: record.receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
  },
});
