/**
 * The real mailer (functions/mailer/handler.ts) as Lambda imports it, the tables, SES v2 and SQS mocked and
 * its log captured. MAIL_MAX_SEND_RATE sets the pace; the limit table takes every write and holds no pause.
 */
import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, vi } from 'vitest';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { capturedLogLines } from './captured-log';

export const DEAD_LETTER_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mandje-dead-letters';
const ENVIRONMENT = {
  TABLE_NAME: 'waitlist-test',
  MAIL_LIMIT_TABLE_NAME: 'limits-test',
  SITE_URL: 'https://mandje.nl',
  MAIL_FROM: 'hallo@mandje.nl',
  CONTACT_EMAIL: 'hallo@mandje.nl',
  SES_CONFIGURATION_SET: 'mandje-mail',
  DEAD_LETTER_QUEUE_URL,
  MAIL_MAX_SEND_RATE: '1000',
};
export function stubEnvironment(overrides: Partial<Record<keyof typeof ENVIRONMENT, string>> = {}): void {
  for (const [name, value] of Object.entries({ ...ENVIRONMENT, ...overrides })) vi.stubEnv(name, value);
}

/** A mailer of its own, as a new Lambda container would have (a pause or a pace one test causes is not the next's). */
export async function newMailer(overrides: Parameters<typeof stubEnvironment>[0] = {}) {
  vi.resetModules();
  stubEnvironment(overrides);
  const { handler } = await import('../../../functions/mailer/handler');
  return (records: SQSRecord[], { remainingMs = 600_000 } = {}) =>
    handler(
      { Records: records },
      { awsRequestId: 'invocation-1', getRemainingTimeInMillis: () => remainingMs },
    );
}

export const dynamo = mockClient(DynamoDBDocumentClient);
export const ses = mockClient(SESv2Client);
export const sqs = mockClient(SQSClient);
export const logLines = capturedLogLines();
export const SEND_QUOTA = { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 10 };
export const WAITLIST = { TableName: 'waitlist-test' };
export const LIMITS = { TableName: 'limits-test' };

beforeEach(() => {
  stubEnvironment();
  for (const mock of [dynamo, ses, sqs]) mock.reset();
  dynamo.on(PutCommand).resolves({});
  dynamo.on(GetCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  ses.on(GetAccountCommand).resolves({ SendQuota: SEND_QUOTA });
  sqs.on(SendMessageCommand).resolves({});
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
});

/** What a GetItem of the waitlist finds under `item.email`. */
export function stored<Item extends { email: string }>(item: Item): void {
  dynamo.on(GetCommand, { ...WAITLIST, Key: { email: item.email } }).resolves({ Item: { ...item } });
}

let messages = 0;
/** One queue message as Lambda hands it over: `body` as JSON unless it is a string already. */
export function queueMessage(body: unknown, { receiveCount = 1 } = {}): SQSRecord {
  const messageId = `message-${++messages}`;
  return {
    messageId,
    receiptHandle: `receipt-of-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1800000000000',
      SenderId: 'AROAEXAMPLE',
      ApproximateFirstReceiveTimestamp: '1800000000000',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:mandje-priority',
    awsRegion: 'eu-west-1',
  };
}

export const logged = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
export const waitlistUpdates = () =>
  dynamo.commandCalls(UpdateCommand, WAITLIST).map((call) => call.args[0].input);
export const sends = () => ses.commandCalls(SendEmailCommand);

/** SES accepting every mail; the pace shows as the gap between the two mails a test sends. */
export function sendMoments() {
  const moments: number[] = [];
  ses.on(SendEmailCommand).callsFake(() => {
    moments.push(performance.now());
    return { MessageId: 'ses-1' };
  });
  return {
    /** A tenth off for timers that fire a little early. */
    expectGapOfAtLeast(ms: number) {
      expect(moments).toHaveLength(2);
      expect((moments[1] as number) - (moments[0] as number)).toBeGreaterThanOrEqual(ms * 0.9);
    },
  };
}

export const deadLetters = () =>
  sqs.commandCalls(SendMessageCommand).map(({ args: [command] }) => ({
    queueUrl: command.input.QueueUrl,
    body: command.input.MessageBody,
    mailClass: command.input.MessageAttributes?.class?.StringValue,
    reason: command.input.MessageAttributes?.reason?.StringValue,
  }));
/** How long each message given back to its queue waits. */
export const retryDelays = () =>
  sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input.VisibilityTimeout);

export const LINK_KEYS = { linkId: 'A'.repeat(22), leaveKey: `${'B'.repeat(21)}A` };
export const PERSON = 'ann@example.nl';

let announcements = 0;
/** A new announcement for each test (the mailer keeps a state it read for seconds), as the operator's tool left it. */
export function announcementSending(state: { rate?: number; pass?: number; stopReason?: string } = {}) {
  const id = `launch-${++announcements}`;
  const item = {
    email: announcementStateKey(id),
    announcement: JSON.stringify({
      id,
      texts: {
        nl: { subject: 'Mandje is er', paragraphs: [['Tekst.']] },
        en: { subject: 'Mandje is here', paragraphs: [['Text.']] },
      },
    }),
    rate: state.rate ?? 1_000,
    pass: state.pass ?? 1,
    ...(state.stopReason ? { stopReason: state.stopReason } : {}),
  };
  stored(item);
  return {
    id,
    stopped: () => stored({ ...item, stopReason: 'access_denied' }),
    passedOn: () => stored({ ...item, pass: item.pass + 1 }),
  };
}

/** The record of `email` answers the link keys, then the announcement's claim, then the rest. */
export function personClaimable(language: 'nl' | 'en' = 'en', email = PERSON) {
  dynamo
    .on(UpdateCommand, { ...WAITLIST, Key: { email } })
    .resolvesOnce({ Attributes: LINK_KEYS })
    .resolvesOnce({ Attributes: { email, emailAsEntered: email, language, ...LINK_KEYS } })
    .resolves({});
}

/** What was asked of PERSON's record, in order. */
export const personUpdates = () =>
  waitlistUpdates()
    .filter((update) => update.Key?.email === PERSON)
    .map((update) => update.UpdateExpression);
/** What a pass's progress item was given. */
export const progressOf = (id: string, pass = 1) =>
  waitlistUpdates()
    .filter((update) => update.Key?.email === announcementProgressKey(id, pass))
    .map((update) => update.ExpressionAttributeValues);
export const recipient = (id: string, pass = 1, key = PERSON) => queueMessage({ id, pass, key });
