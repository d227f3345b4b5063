/**
 * The real mailer (functions/mailer/handler.ts) for unit tests, imported as Lambda imports it, with the
 * tables, SES v2 and SQS mocked and its log captured. MAIL_MAX_SEND_RATE sets the pace; GetAccount answers
 * a quota for the day far from spent (read once: the mailer keeps it ten minutes). The mocked limit table
 * takes every write and holds no pause.
 * Importing this module resets the mocks before each test.
 */
import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, vi } from 'vitest';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import type { Announcement } from '../../../functions/announce/announcement-text';
import { capturedLogLines } from './captured-log';

export const DEAD_LETTER_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mandje-dead-letters';
/** The queue the messages come from: its URL is made from this ARN for ChangeMessageVisibility. */
export const QUEUE_ARN = 'arn:aws:sqs:eu-west-1:123456789012:mandje-priority';
export const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mandje-priority';

export const ENVIRONMENT = {
  TABLE_NAME: 'waitlist-test',
  MAIL_LIMIT_TABLE_NAME: 'limits-test',
  SITE_URL: 'https://mandje.nl',
  MAIL_FROM: 'hallo@mandje.nl',
  CONTACT_EMAIL: 'hallo@mandje.nl',
  SES_CONFIGURATION_SET: 'mandje-mail',
  DEAD_LETTER_QUEUE_URL,
  MAIL_MAX_SEND_RATE: '1000',
};
/** The settings as Lambda gives them; `unstubEnvs` clears them before each test, so each test sets them. */
export function stubEnvironment(overrides: Partial<Record<keyof typeof ENVIRONMENT, string>> = {}): void {
  for (const [name, value] of Object.entries({ ...ENVIRONMENT, ...overrides })) vi.stubEnv(name, value);
}

stubEnvironment();
export const { handler } = await import('../../../functions/mailer/handler');

export const dynamo = mockClient(DynamoDBDocumentClient);
export const ses = mockClient(SESv2Client);
export const sqs = mockClient(SQSClient);
export const logLines = capturedLogLines();

/** What GetAccount answers unless a test says otherwise: a production account, little sent today. */
export const SEND_QUOTA = { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 10 };

export const WAITLIST = { TableName: 'waitlist-test' };
export const LIMITS = { TableName: 'limits-test' };

beforeEach(() => {
  stubEnvironment();
  dynamo.reset();
  ses.reset();
  sqs.reset();
  // The limit table takes every write; nothing is found unless a test says so.
  dynamo.on(PutCommand).resolves({});
  dynamo.on(GetCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  ses.on(GetAccountCommand).resolves({ SendQuota: SEND_QUOTA });
  sqs.on(SendMessageCommand).resolves({});
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
});

/** What a GetItem of the waitlist finds under `item.email`. */
export function stored<Item extends { email: string }>(item: Item): void {
  const found: Record<string, unknown> = { ...item };
  dynamo.on(GetCommand, { ...WAITLIST, Key: { email: item.email } }).resolves({ Item: found });
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
    eventSourceARN: QUEUE_ARN,
    awsRegion: 'eu-west-1',
  };
}

/** Runs the mailer on `records`, with time to spare unless `remainingMs` says otherwise. */
export function deliver(records: SQSRecord[], { remainingMs = 600_000 } = {}) {
  return handler(
    { Records: records },
    { awsRequestId: 'invocation-1', getRemainingTimeInMillis: () => remainingMs },
  );
}

/** The log lines as objects. */
export const logged = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

/** The waitlist's updates, in order. */
export const waitlistUpdates = () =>
  dynamo.commandCalls(UpdateCommand, WAITLIST).map((call) => call.args[0].input);

/**
 * SES accepting every mail, and the moments it was asked to (performance.now()): the pace shows as the gap
 * between the two mails a test sends.
 */
export function sendMoments() {
  const moments: number[] = [];
  ses.on(SendEmailCommand).callsFake(() => {
    moments.push(performance.now());
    return { MessageId: 'ses-1' };
  });
  return {
    /** A tenth off for timers that fire a little early and clocks read to the millisecond. */
    expectGapOfAtLeast(ms: number) {
      expect(moments).toHaveLength(2);
      expect((moments[1] as number) - (moments[0] as number)).toBeGreaterThanOrEqual(ms * 0.9);
    },
  };
}

/** What went to the dead-letter queue: the body, with its class and why. */
export const deadLetters = () =>
  sqs.commandCalls(SendMessageCommand).map(({ args: [command] }) => ({
    queueUrl: command.input.QueueUrl,
    body: command.input.MessageBody,
    mailClass: command.input.MessageAttributes?.class?.StringValue,
    reason: command.input.MessageAttributes?.reason?.StringValue,
  }));

/** The messages given back to their queue, and after how long. */
export const visibilityChanges = () =>
  sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input);

export const LINK_KEYS = { linkId: 'A'.repeat(22), leaveKey: 'B'.repeat(22) };
export const PERSON = 'ann@example.nl';

let announcements = 0;
/**
 * A new announcement for each test, with its state as the operator's tool left it: the mailer keeps the
 * states it read for a few seconds, so no test may meet another's.
 */
export function announcementSending(state: { rate?: number; pass?: number; stopReason?: string } = {}) {
  const id = `launch-${++announcements}`;
  const announcement: Announcement = {
    id,
    texts: {
      nl: { subject: 'Mandje is er', paragraphs: [['Tekst.']] },
      en: { subject: 'Mandje is here', paragraphs: [['Text.']] },
    },
  };
  const item = {
    email: announcementStateKey(id),
    announcement: JSON.stringify(announcement),
    rate: state.rate ?? 1_000,
    pass: state.pass ?? 1,
    ...(state.stopReason ? { stopReason: state.stopReason } : {}),
  };
  stored(item);
  return {
    id,
    stopped: () => stored({ ...item, stopReason: 'access_denied' }),
    /** The tool queues the next pass. */
    passedOn: () => stored({ ...item, pass: item.pass + 1 }),
  };
}

/** The record of PERSON answers the link keys, then the announcement's claim, then the rest. */
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
/** The writes to a pass's progress item. */
export const progressOf = (id: string, pass = 1) =>
  waitlistUpdates().filter((update) => update.Key?.email === announcementProgressKey(id, pass));
/** The queue message for one recipient of a pass of the announcement `id`. */
export const recipient = (id: string, pass = 1, key = PERSON) => queueMessage({ id, pass, key });
