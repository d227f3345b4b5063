/**
 * The mailer as Lambda runs it (functions/mailer/handler.ts), tables, SES v2 and SQS mocked. What claiming
 * and marking leave in a record is pinned against a real store: test/integration/mail-core.test.ts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BadRequestException,
  GetAccountCommand,
  MessageRejected,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { LATE_MAIL_MINUTES } from '#contract/mail-pace';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { parseLeaveToken } from '../../../functions/leave/leave-token';
import type { MailJob } from '../../../functions/mailer/mail-job';
import { dailyQuota } from '../../../functions/mailer/mail-pause';
import { sendUntilNotThrottled } from '../../../functions/mailer/mail-sender';
import { mailboxHash, mailboxHashOf } from '../../../functions/store/mailbox';
import { capturedLogLines } from './captured-log';
import { readEmf } from './cloudwatch-emf';

const DEAD_LETTER_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mandje-dead-letters';
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
/** A mailer of its own, as a new Lambda container would have (a pause or a pace one test causes is not the next's). */
async function newMailer(overrides: Partial<typeof ENVIRONMENT> = {}) {
  vi.resetModules();
  for (const [name, value] of Object.entries({ ...ENVIRONMENT, ...overrides })) vi.stubEnv(name, value);
  const { handler } = await import('../../../functions/mailer/handler');
  return (records: SQSRecord[], { remainingMs = 600_000 } = {}) =>
    handler(
      { Records: records },
      { awsRequestId: 'invocation-1', getRemainingTimeInMillis: () => remainingMs },
    );
}

const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const sqs = mockClient(SQSClient);
const logLines = capturedLogLines();
const SEND_QUOTA = { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 10 };
const WAITLIST = { TableName: 'waitlist-test' };
const LIMITS = { TableName: 'limits-test' };

beforeEach(() => {
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
function stored<Item extends { email: string }>(item: Item): void {
  dynamo.on(GetCommand, { ...WAITLIST, Key: { email: item.email } }).resolves({ Item: { ...item } });
}

let messages = 0;
/** One queue message as Lambda hands it over (what the mailer reads of it): `body` as JSON unless a string. */
function queueMessage(body: unknown, { receiveCount = 1 } = {}): SQSRecord {
  const messageId = `message-${++messages}`;
  return {
    messageId,
    receiptHandle: `receipt-of-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:mandje-priority',
  } as SQSRecord;
}

const logged = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
const waitlistUpdates = () => dynamo.commandCalls(UpdateCommand, WAITLIST).map((call) => call.args[0].input);
const sends = () => ses.commandCalls(SendEmailCommand);

const deadLetters = () =>
  sqs.commandCalls(SendMessageCommand).map(({ args: [command] }) => ({
    queueUrl: command.input.QueueUrl,
    body: command.input.MessageBody,
    mailClass: command.input.MessageAttributes?.class?.StringValue,
    reason: command.input.MessageAttributes?.reason?.StringValue,
  }));
/** How long each message given back to its queue waits. */
const retryDelays = () =>
  sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input.VisibilityTimeout);

const LINK_KEYS = { linkId: 'A'.repeat(22), leaveKey: `${'B'.repeat(21)}A` };
const PERSON = 'ann@example.nl';

let announcements = 0;
/** A new announcement for each test (the mailer keeps a state it read for seconds), as the operator's tool left it. */
function announcementSending(state: { rate?: number; pass?: number; stopReason?: string } = {}) {
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
function personClaimable(language: 'nl' | 'en' = 'en', email = PERSON) {
  dynamo
    .on(UpdateCommand, { ...WAITLIST, Key: { email } })
    .resolvesOnce({ Attributes: LINK_KEYS })
    .resolvesOnce({ Attributes: { email, emailAsEntered: email, language, ...LINK_KEYS } })
    .resolves({});
}

/** What was asked of PERSON's record, in order. */
const personUpdates = () =>
  waitlistUpdates()
    .filter((update) => update.Key?.email === PERSON)
    .map((update) => update.UpdateExpression);
/** What a pass's progress item was given. */
const progressOf = (id: string, pass = 1) =>
  waitlistUpdates()
    .filter((update) => update.Key?.email === announcementProgressKey(id, pass))
    .map((update) => update.ExpressionAttributeValues);
const recipient = (id: string, pass = 1, key = PERSON) => queueMessage({ id, pass, key });

const agoIso = (ms: number) => new Date(Date.now() - ms).toISOString();
const PENDING: WaitlistRecord = {
  email: 'ann@xn--bcher-kva.de',
  mailbox: mailboxHashOf('ann@xn--bcher-kva.de'),
  emailAsEntered: 'Ann@Bücher.de',
  language: 'nl',
  createdAt: '2026-11-24T09:00:00.000Z',
  consentVersion: '2026-11-22.1',
  status: 'pending',
  expiresAt: 1_800_000_000,
  mailRequestId: 'request-1',
  mailRequestedAt: agoIso(5_000),
  mailsRequested: 1,
};
const job = (record: WaitlistRecord, kind: MailJob['kind'] = 'confirmation', requestId?: string) =>
  queueMessage({
    kind,
    key: record.email,
    requestId: requestId ?? (kind === 'confirmation' ? record.mailRequestId : record.leaveMailRequestId),
  });

const sentRaw = (call = 0) => Buffer.from(sends()[call]?.args[0].input.Content?.Raw?.Data ?? []).toString();
/** The confirmation link in the plain-text part of a raw message. */
const linkIn = (raw: string) => {
  const text = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
  return Buffer.from(text.replace(/\r\n/g, ''), 'base64')
    .toString()
    .match(/https:\/\/mandje\.nl\/api\/confirm\?\S+/)?.[0];
};
const leaveLinkIn = (raw: string) =>
  new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? 'https://none');
/** The mailer's own steps on the record, without the link keys a record without them gets first. */
const mailSteps = () =>
  waitlistUpdates().filter((update) => !update.UpdateExpression?.includes('if_not_exists(linkId'));
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
const fault = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
/** A fault of SES's set-up, standing for all of them. */
const REJECTED = new MessageRejected({ message: 'Email address is not verified.', $metadata: {} });
const NOTHING_FAILED = { batchItemFailures: [] };
const failed = (...records: SQSRecord[]) => ({
  batchItemFailures: records.map(({ messageId }) => ({ itemIdentifier: messageId })),
});

let deliver: Awaited<ReturnType<typeof newMailer>>;
beforeEach(async () => {
  deliver = await newMailer();
});

describe('confirmation mails', () => {
  // Its words, headers and language: mails.test.ts; claim, send and mark on a real store: mail-core.test.ts.
  it('mails a pending signup through the configuration set with the link keys another mail made since the read, its links naming no address, the record no token', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand, WAITLIST).resolves({ Attributes: LINK_KEYS });

    expect(await deliver([job(PENDING)])).toEqual(NOTHING_FAILED);

    expect(sends()[0]?.args[0].input).toMatchObject({
      FromEmailAddress: 'hallo@mandje.nl',
      Destination: { ToAddresses: ['Ann@xn--bcher-kva.de'] },
      ConfigurationSetName: 'mandje-mail',
    });
    const token = new URL(linkIn(sentRaw()) ?? '').searchParams.get('t') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(Buffer.from(token, 'base64url').subarray(4, 20).toString('base64url')).toBe(LINK_KEYS.linkId);
    const leave = leaveLinkIn(sentRaw());
    expect(parseLeaveToken(leave.searchParams.get('t') ?? '')?.leaveKey).toBe(LINK_KEYS.leaveKey);
    expect(leave.href).not.toMatch(/ann@|ann%40|bcher-kva|b%C3%BCcher/i);
    expect(mailSteps()).toHaveLength(2);
    expect(JSON.stringify(waitlistUpdates())).not.toContain(token);
    expect(deadLetters()).toEqual([]);
  });

  it('sends nothing for a confirmed record, a replaced request, a mail already sent, a record gone, or a lost claim', async () => {
    const records: WaitlistRecord[] = [
      { ...PENDING, email: 'confirmed@example.nl', status: 'confirmed' },
      { ...PENDING, email: 'replaced@example.nl', mailRequestId: 'request-2' },
      { ...PENDING, email: 'sent@example.nl', mailedRequestId: 'request-1' },
    ];
    for (const record of records) stored(record);
    // Another delivery's claim, or its leave link, went between the read and this one's write.
    const raced = { ...PENDING, email: 'raced@example.nl', ...LINK_KEYS, leaveMailRequestId: 'leave-1' };
    stored(raced);
    dynamo.on(UpdateCommand, { ...WAITLIST, Key: { email: raced.email } }).rejects(conditionFailed());

    const result = await deliver([
      ...records.map((record) => job(record, 'confirmation', 'request-1')),
      job({ ...PENDING, email: 'gone@example.nl' }),
      job(raced),
      job(raced, 'leave-link'),
    ]);

    expect(result).toEqual(NOTHING_FAILED);
    expect(sends()).toHaveLength(0);
    expect(waitlistUpdates().map((update) => update.Key?.email)).toEqual([raced.email, raced.email]);
    expect(deadLetters()).toEqual([]);
  });

  // Owed no more either way: what each leaves in the record, against a real store: mail-core.test.ts.
  it.each([
    [
      'a mailbox past its limit: nothing sent, counted, not dead-lettered',
      () => {
        stored(PENDING);
        const sentAt = Date.now() - 60_000;
        dynamo
          .on(GetCommand, { ...LIMITS, Key: { deliveryKeyHash: mailboxHash('limit', PENDING.email) } })
          .resolves({
            Item: { sends: ['a', 'b', 'c'].map((requestId) => ({ requestId, sentAt })), version: 3 },
          });
      },
      0,
      undefined,
      { outcome: 'limited', MailLimited: 1 },
    ],
    [
      'a mailbox that bounced or complained: nothing sent, dead-lettered',
      () => stored({ ...PENDING, mailSuppressed: 'bounce' }),
      0,
      'suppressed',
      { outcome: 'suppressed', MailSuppressed: 1 },
    ],
    [
      'a mail SES refuses for good: dead-lettered',
      () => {
        stored(PENDING);
        ses
          .on(SendEmailCommand)
          .rejects(new BadRequestException({ message: 'Illegal address', $metadata: {} }));
      },
      1,
      'refused',
      { level: 'ERROR', outcome: 'refused', errorName: 'BadRequestException', MailRefused: 1 },
    ],
    [
      'a job failing a hundred times with a permanent fault: dead-lettered as failing, counted as refused',
      () => dynamo.on(GetCommand, WAITLIST).rejects(fault('ResourceNotFoundException', { $fault: 'client' })),
      0,
      'failing',
      { level: 'ERROR', outcome: 'refused', MailRefused: 1 },
    ],
  ] as const)('lets go of %s', async (_what, arrange, sent, reason, line) => {
    arrange();
    const message = queueMessage(
      { kind: 'confirmation', key: PENDING.email, requestId: 'request-1' },
      { receiveCount: 100 },
    );

    expect(await deliver([message])).toEqual(NOTHING_FAILED);

    expect(sends()).toHaveLength(sent);
    expect(deadLetters()).toEqual(
      reason
        ? [{ queueUrl: DEAD_LETTER_QUEUE_URL, body: message.body, mailClass: 'confirmation', reason }]
        : [],
    );
    expect(retryDelays()).toEqual([]);
    expect(logged()).toEqual([expect.objectContaining(line)]);
  });

  const MAY_PASS = { outcome: 'failed', MailFailed: 1, FaultClass: 'service_fault' };
  const PAUSED = { outcome: 'paused', reason: 'MessageRejected', MailPaused: 1 };
  it.each([
    ['a fault that may pass', 1, 30, MAY_PASS],
    ['a fault that may pass', 2, 60, MAY_PASS],
    ['a fault that may pass', 3, 120, MAY_PASS],
    ['a fault that may pass', 5, 480, MAY_PASS],
    ['a fault that may pass', 6, 900, MAY_PASS],
    ['a fault that may pass', 150, 900, MAY_PASS],
    ['a fault of SES’s set-up', 1, 60, PAUSED],
    ['a fault of SES’s set-up', 2, 120, PAUSED],
    ['a fault of SES’s set-up', 5, 900, PAUSED],
    ['a fault of SES’s set-up', 150, 900, PAUSED],
  ])(
    'gives a message back after %s, at its %sth receive for %s s, never dead-lettered',
    async (_what, receiveCount, seconds, line) => {
      stored(PENDING);
      if (line === MAY_PASS)
        dynamo.on(GetCommand, WAITLIST).rejects(fault('InternalServerError', { $fault: 'server' }));
      else ses.on(SendEmailCommand).rejects(REJECTED);
      const message = job(PENDING);
      message.attributes.ApproximateReceiveCount = String(receiveCount);

      expect(await deliver([message])).toEqual(failed(message));

      expect(retryDelays()).toEqual([seconds]);
      expect(deadLetters()).toEqual([]);
      expect(logged()).toEqual([expect.objectContaining({ level: 'ERROR', ...line })]);
    },
  );

  it('starts no mail when the invocation’s time is short, and gives the message back at once', async () => {
    stored(PENDING);
    const message = job(PENDING);

    expect(await deliver([message], { remainingMs: 5_000 })).toEqual(failed(message));
    expect(dynamo.commandCalls(GetCommand, WAITLIST)).toHaveLength(0);
    expect(retryDelays()).toEqual([0]);
  });

  it('logs one line per mail with how far it lagged behind its request, a late one with a warning, never the address or the token', async () => {
    const late: WaitlistRecord = {
      ...PENDING,
      email: 'bob@example.nl',
      emailAsEntered: 'Bob@Example.nl',
      mailRequestedAt: agoIso(2 * 3_600_000),
    };
    stored(PENDING);
    stored(late);

    await deliver([job(PENDING), job(late)]);

    const [onTime, lateLine] = logLines.map((line) =>
      readEmf(line).find((point) => point.name === 'MailLag'),
    );
    expect(onTime).toMatchObject({ unit: 'Milliseconds', dimensions: { Service: 'mailer' } });
    expect(onTime?.value).toBeGreaterThanOrEqual(5_000);
    expect(onTime?.value).toBeLessThan(LATE_MAIL_MINUTES * 60_000);
    expect(lateLine?.value).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(logged()).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'confirmation mail', outcome: 'sent', MailSent: 1 }),
      expect.objectContaining({ level: 'WARN', outcome: 'sent', MailSent: 1, MailLate: 1 }),
    ]);
    expect(logged()[0]).not.toHaveProperty('MailLate');
    const tokens = [0, 1].map((call) => new URL(linkIn(sentRaw(call)) ?? '').searchParams.get('t') ?? '');
    const log = logLines.join('\n');
    expect(log).not.toMatch(/b(ü|xn--)|bob|example\.nl/i);
    for (const token of tokens) expect(log).not.toContain(token);
  });
});

describe('what is none of its mail', () => {
  it.each([
    ['not JSON', 'not json {'],
    ['a job without an address', JSON.stringify({ kind: 'confirmation', key: 'nobody', requestId: 'r' })],
    [
      'a kind it does not send',
      JSON.stringify({ kind: 'newsletter', key: 'ann@example.nl', requestId: 'r' }),
    ],
  ])('dead-letters %s as unreadable, touching nothing', async (_what, body) => {
    expect(await deliver([queueMessage(body)])).toEqual(NOTHING_FAILED);

    expect(deadLetters()).toEqual([
      { queueUrl: DEAD_LETTER_QUEUE_URL, body, mailClass: 'unknown', reason: 'unreadable' },
    ]);
    expect(dynamo.calls()).toHaveLength(0);
    expect(logged()).toEqual([expect.objectContaining({ level: 'ERROR', message: 'unreadable message' })]);
  });

  it('starts the priority jobs of a mixed batch before its announcement messages', async () => {
    stored(PENDING);

    await deliver([queueMessage({ id: 'launch-mixed', pass: 1, key: 'carol@example.nl' }), job(PENDING)]);

    const reads = dynamo.commandCalls(GetCommand, WAITLIST).map((call) => call.args[0].input.Key?.email);
    expect(reads.slice(0, 2)).toEqual([PENDING.email, '#announcement#launch-mixed']);
  });
});

describe('the announcement', () => {
  it.each([
    ['a stopped pass', { stopReason: 'access_denied: AccessDeniedException' }],
    ['a pass queued again since', { pass: 2 }],
  ])('lets the message of %s go without sending, counted not owed', async (_what, state) => {
    const { id } = announcementSending(state);

    expect(await deliver([recipient(id)])).toEqual(NOTHING_FAILED);

    expect(sends()).toHaveLength(0);
    expect(personUpdates()).toEqual([]);
    expect(progressOf(id)).toEqual([{ ':not_owed': 1 }]);
  });

  it('sends nothing to a mailbox another spelling of which bounced, marking the record; nor to an address the rule now refuses', async () => {
    const { id } = announcementSending();
    dynamo
      .on(GetCommand, { ...LIMITS, Key: { deliveryKeyHash: mailboxHash('suppression', PERSON) } })
      .resolves({ Item: { mailSuppressed: 'bounce', mailSuppressedAt: '2026-11-24T10:00:00Z' } });
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: 'old@example.nl' } })
      .resolvesOnce({ Attributes: LINK_KEYS })
      .resolvesOnce({
        Attributes: { email: 'old@example.nl', emailAsEntered: 'old@localhost', ...LINK_KEYS },
      })
      .resolves({});

    expect(await deliver([recipient(id), recipient(id, 1, 'old@example.nl')])).toEqual(NOTHING_FAILED);

    expect(sends()).toHaveLength(0);
    expect(personUpdates()).toEqual(['SET mailSuppressed = :reason, mailSuppressedAt = :at']);
    expect(
      waitlistUpdates()
        .filter((update) => update.Key?.email === 'old@example.nl')
        .at(-1)?.UpdateExpression,
    ).toBe('ADD announcementsUndeliverable :ids REMOVE announcing, announcingAt');
    expect(progressOf(id)).toEqual([{ ':not_owed': 2 }]);
  });

  it('lets a message go when the pass’s state is not there at all', async () => {
    expect(await deliver([recipient('never-planned')])).toEqual(NOTHING_FAILED);
    expect(sends()).toHaveLength(0);
  });

  it('reads the state again for a pass newer than the one it read a moment ago', async () => {
    const { id, passedOn } = announcementSending();
    dynamo.on(UpdateCommand, { ...WAITLIST, Key: { email: 'bob@example.nl' } }).rejects(conditionFailed());
    await deliver([recipient(id, 1, 'bob@example.nl')]);
    passedOn();
    personClaimable();

    expect(await deliver([recipient(id, 2)])).toEqual(NOTHING_FAILED);

    expect(sends()).toHaveLength(1);
    expect(progressOf(id, 2)).toEqual([{ ':sent_en': 1 }]);
  });

  it('gives the batch’s messages back when their counts cannot be written, to be counted when they come again', async () => {
    const { id } = announcementSending();
    personClaimable();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: announcementProgressKey(id, 1) } })
      .rejects(fault('ServiceUnavailable', { $fault: 'server' }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual(failed(message));

    expect(sends()).toHaveLength(1);
    expect(logged()).toContainEqual(
      expect.objectContaining({ level: 'WARN', message: 'announcement progress not counted' }),
    );
  });

  const CLEARED = 'REMOVE announcing, announcingAt';
  const KEPT = 'SET announcing = :id, announcingAt = :now';
  const unknown = (faultClass: string) => ({
    level: 'WARN',
    message: 'announcement outcome unknown',
    FaultClass: faultClass,
  });
  it.each([
    [
      'refused for good: marked undeliverable, dead-lettered, the pass going on',
      new BadRequestException({ message: 'Illegal address', $metadata: {} }),
      false,
      `ADD announcementsUndeliverable :ids ${CLEARED}`,
      ':refused',
      'refused',
      { MailRefused: 1 },
    ],
    [
      'failing on its side: given back, its claim cleared',
      fault('ServiceUnavailable', { $fault: 'server' }),
      true,
      CLEARED,
      ':failed',
      undefined,
      {},
    ],
    [
      'connection not made: given back, its claim cleared',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      true,
      CLEARED,
      ':failed',
      undefined,
      {},
    ],
    [
      'answer lost to a cut connection: its claim kept, counted unknown, never sent again',
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      false,
      KEPT,
      ':unrecorded',
      undefined,
      unknown('network'),
    ],
    [
      'answer lost to a timeout: its claim kept, counted unknown, never sent again',
      fault('TimeoutError'),
      false,
      KEPT,
      ':unrecorded',
      undefined,
      unknown('timeout'),
    ],
  ] as [string, Error, boolean, string, string, string | undefined, object][])(
    'after SES’s %s',
    async (_what, error, givenBack, lastUpdate, counted, reason, line) => {
      const { id } = announcementSending();
      personClaimable();
      ses.on(SendEmailCommand).rejects(error);
      const message = recipient(id);

      expect(await deliver([message])).toEqual(givenBack ? failed(message) : NOTHING_FAILED);

      expect(personUpdates().at(-1)).toBe(lastUpdate);
      expect(progressOf(id)).toEqual([{ [counted]: 1 }]);
      expect(retryDelays()).toEqual(givenBack ? [30] : []);
      expect(deadLetters()).toEqual(
        reason
          ? [{ queueUrl: DEAD_LETTER_QUEUE_URL, body: message.body, mailClass: 'announcement', reason }]
          : [],
      );
      expect(logged()).toContainEqual(expect.objectContaining(line));
      expect(waitlistUpdates().some((update) => update.Key?.email === announcementStateKey(id))).toBe(false);
    },
  );

  it('keeps the claim when SES took the mail but the record cannot be marked: counted unknown, never sent again', async () => {
    const { id } = announcementSending();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: PERSON } })
      .resolvesOnce({ Attributes: LINK_KEYS })
      .resolvesOnce({ Attributes: { email: PERSON, emailAsEntered: PERSON, language: 'en', ...LINK_KEYS } })
      .rejects(fault('InternalServerError', { $fault: 'server' }));

    expect(await deliver([recipient(id)])).toEqual(NOTHING_FAILED);

    expect(sends()).toHaveLength(1);
    expect(personUpdates()).not.toContain('REMOVE announcing, announcingAt');
    expect(progressOf(id)).toEqual([{ ':unrecorded': 1 }]);
  });

  it('claims nobody whose turn the invocation’s time runs out waiting for: the message goes back, still owed', async () => {
    const { id } = announcementSending({ rate: 0.1 });
    personClaimable('en', 'ann@example.nl');
    personClaimable('en', 'bob@example.nl');
    const [first, second] = [recipient(id, 1, 'ann@example.nl'), recipient(id, 1, 'bob@example.nl')];

    // 300 ms past the margin kept for the counts; the second turn is 20 s after the first.
    expect(await deliver([first, second], { remainingMs: 15_300 })).toEqual(failed(second));

    expect(sends()).toHaveLength(1);
    const claims = waitlistUpdates().filter((update) =>
      update.UpdateExpression?.startsWith('SET announcing'),
    );
    expect(claims.map((claim) => claim.Key?.email)).toEqual(['ann@example.nl']);
  });

  it('stops the pass at a fault of this side no retry will fix, and lets its later messages go unsent', async () => {
    const { id, stopped } = announcementSending();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: PERSON } })
      .rejects(fault('AccessDeniedException', { $fault: 'client' }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual(failed(message));

    const stop = waitlistUpdates().find((update) => update.Key?.email === announcementStateKey(id));
    expect(stop?.ExpressionAttributeValues).toEqual({
      ':reason': 'access_denied: AccessDeniedException',
      ':pass': 1,
    });
    stopped();
    ses.resetHistory();
    expect(await deliver([recipient(id, 1, 'bob@example.nl')])).toEqual(NOTHING_FAILED);
    expect(sends()).toHaveLength(0);
  });
});

describe('a fault of SES’s set-up pauses every sender', () => {
  // Which faults are the set-up's: fault-class.test.ts; a confirmation kept owed, never dead-lettered, and
  // sending resumed once fixed: test/aws/setup-faults.test.ts.
  const PAUSE_KEY = { deliveryKeyHash: '#pause' };
  const pauseWrites = () =>
    dynamo
      .commandCalls(PutCommand, LIMITS)
      .map((call) => call.args[0].input)
      .filter((input) => input.Item?.deliveryKeyHash === PAUSE_KEY.deliveryKeyHash);
  const pausedFor = (inMs: number) =>
    dynamo
      .on(GetCommand, { ...LIMITS, Key: PAUSE_KEY })
      .resolves({ Item: { ...PAUSE_KEY, until: Date.now() + inMs, reason: 'MessageRejected' } });
  const pauseLines = () => logged().filter((line) => line.message === 'mail paused');
  const bob: WaitlistRecord = { ...PENDING, email: 'bob@example.nl', emailAsEntered: 'Bob@Example.nl' };
  const confirmation = (receiveCount = 1) =>
    queueMessage({ kind: 'confirmation', key: bob.email, requestId: 'request-1' }, { receiveCount });
  beforeEach(() => stored(bob));

  it('leaves the announcement owed: its claim released, nobody undeliverable, the pass going on', async () => {
    const { id } = announcementSending();
    personClaimable();
    ses.on(SendEmailCommand).rejects(REJECTED);
    const message = recipient(id);

    expect(await deliver([message])).toEqual(failed(message));

    expect(personUpdates().at(-1)).toBe('REMOVE announcing, announcingAt');
    expect(waitlistUpdates().some((update) => update.Key?.email === announcementStateKey(id))).toBe(false);
    expect(progressOf(id)).toEqual([]);
    expect(deadLetters()).toEqual([]);
    expect(pauseLines()).toEqual([
      expect.objectContaining({ level: 'ERROR', reason: 'MessageRejected', MailPaused: 1 }),
    ]);
  });

  it('writes the pause to the limit table for a minute, with its reason and expiry, unless one is on; counted once', async () => {
    ses.on(SendEmailCommand).rejects(REJECTED);
    const before = Date.now();
    await deliver([confirmation()]);

    const [write, ...more] = pauseWrites();
    expect(more).toEqual([]);
    const until = Number(write?.Item?.until);
    expect(until).toBeGreaterThanOrEqual(before + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(write?.Item).toMatchObject({
      reason: 'MessageRejected',
      expiresAt: Math.ceil(until / 1_000) + 60,
    });
    expect(logLines.join('\n')).not.toMatch(/bob@/i);

    // Another sender paused first: this one's send is not counted again.
    deliver = await newMailer();
    dynamo.on(PutCommand, { ...LIMITS, Item: PAUSE_KEY }).rejects(conditionFailed());
    logLines.length = 0;
    await deliver([confirmation()]);
    expect(pauseLines()).toEqual([]);
  });

  it('while paused sends and claims nothing, reading the pause once: each goes back for what is left of it', async () => {
    pausedFor(300_000);
    const { id } = announcementSending();
    personClaimable();

    expect((await deliver([confirmation(), recipient(id)])).batchItemFailures).toHaveLength(2);
    const reads = () => dynamo.commandCalls(GetCommand, { ...LIMITS, Key: PAUSE_KEY }).length;
    const readsBefore = reads();
    await deliver([confirmation()]);

    expect(sends()).toHaveLength(0);
    expect(waitlistUpdates()).toEqual([]);
    expect(retryDelays()).toEqual([300, 300, 300]);
    expect(reads()).toBe(readsBefore);
    expect(logged()).toEqual([]);
  });
});

describe('SES’s quota for the day', () => {
  const bob: WaitlistRecord = { ...PENDING, email: 'bob@example.nl', emailAsEntered: 'Bob@Example.nl' };

  it('pauses every sender for a quarter of an hour when SES says it is spent', async () => {
    stored(bob);
    ses
      .on(SendEmailCommand)
      .rejects(fault('TooManyRequestsException', { message: 'Daily message quota exceeded.' }));

    const before = Date.now();
    await deliver([job(bob)]);

    expect(sends()).toHaveLength(1);
    const [pause] = dynamo
      .commandCalls(PutCommand, LIMITS)
      .map((call) => call.args[0].input.Item)
      .filter((item) => item?.deliveryKeyHash === '#pause');
    expect(pause).toMatchObject({ reason: 'DailyQuotaExceeded' });
    expect(Number(pause?.until)).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(retryDelays()).toEqual([900]);
  });

  it('bounds what all senders sent since the read by the pace; an account with no daily quota (-1) holds nothing back', () => {
    let now = 0;
    const quota = dailyQuota(1_000, 800, 10, () => now);
    now = 5_000;
    expect(quota.reserveReached).toBe(false);
    now = 10_000;
    expect(quota.reserveReached).toBe(true);
    expect(dailyQuota(-1, 1e6, 10, () => now).reserveReached).toBe(false);
  });
});

describe('sending through SES\'s "slow down"', () => {
  const slowDown = () => fault('TooManyRequestsException', { $fault: 'client' });

  it('gives up with the throttling error when told to, sending once, and leaves the mail to its queue', async () => {
    const send = vi.fn().mockRejectedValue(slowDown());
    const turn = vi.fn().mockResolvedValue(undefined);
    await expect(sendUntilNotThrottled(send, turn, { giveUp: () => true })).rejects.toThrow(
      'TooManyRequestsException',
    );
    expect([send.mock.calls.length, turn.mock.calls.length]).toEqual([1, 1]);
  });
});
