/**
 * The mailer when SES's set-up, not a person, is at fault (the sender not verified, the sandbox, the role,
 * SES paused, the configuration set missing, the day's quota spent): sending pauses for every sender
 * through one item in the limit table, every mail stays owed and waits on its queue, and the sending
 * resumes by itself once a mail goes again. And the day's quota: the announcement leaves a reserve for
 * confirmations. Each test runs a mailer of its own, as a new Lambda container would: a pause one test
 * causes is not the next one's.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetAccountCommand,
  MessageRejected,
  SESv2ServiceException,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { announcementStateKey } from '#contract/announcement-keys';
import type { WaitlistRecord } from '#contract/waitlist-table';
import type { MailJob } from '../../../functions/mailer/mail-job';
import { dailyQuota } from '../../../functions/mailer/mail-pause';
import { mailboxHashOf } from '../../../functions/store/mailbox';
import {
  announcementSending,
  deadLetters,
  dynamo,
  LIMITS,
  logged,
  logLines,
  personClaimable,
  personUpdates,
  progressOf,
  queueMessage,
  recipient,
  SEND_QUOTA,
  ses,
  stored,
  stubEnvironment,
  visibilityChanges,
  waitlistUpdates,
} from './mailer-under-test';

const PENDING: WaitlistRecord = {
  email: 'bob@example.nl',
  mailbox: mailboxHashOf('bob@example.nl'),
  emailAsEntered: 'Bob@Example.nl',
  language: 'nl',
  createdAt: '2026-11-24T09:00:00.000Z',
  consentVersion: '2026-11-22.1',
  status: 'pending',
  expiresAt: 1_800_000_000,
  mailRequestId: 'request-1',
  mailRequestedAt: new Date().toISOString(),
  mailsRequested: 1,
};
const confirmation = (receiveCount = 1) =>
  queueMessage({ kind: 'confirmation', key: PENDING.email, requestId: 'request-1' } satisfies MailJob, {
    receiveCount,
  });

const sesFault = (name: string, message = 'refused') =>
  new SESv2ServiceException({ name, message, $fault: 'client', $metadata: {} });
const SETUP_FAULTS = [
  ['MessageRejected', new MessageRejected({ message: 'Email address is not verified.', $metadata: {} })],
  ['AccessDeniedException', sesFault('AccessDeniedException')],
  ['SendingPausedException', sesFault('SendingPausedException')],
  ['MailFromDomainNotVerifiedException', sesFault('MailFromDomainNotVerifiedException')],
  ['AccountSuspendedException', sesFault('AccountSuspendedException')],
  ['NotFoundException', sesFault('NotFoundException', 'Configuration set does not exist.')],
] as const;

const PAUSE_KEY = { deliveryKeyHash: '#pause' };
const pauseWrites = () =>
  dynamo
    .commandCalls(PutCommand, LIMITS)
    .map((call) => call.args[0].input)
    .filter((input) => input.Item?.deliveryKeyHash === PAUSE_KEY.deliveryKeyHash);
const pauseReads = () =>
  dynamo
    .commandCalls(GetCommand, LIMITS)
    .filter((call) => call.args[0].input.Key?.deliveryKeyHash === PAUSE_KEY.deliveryKeyHash);
/** A pause another sender wrote, ending `inMs` from now (in the past when negative). */
const pausedFor = (inMs: number) =>
  dynamo
    .on(GetCommand, { ...LIMITS, Key: PAUSE_KEY })
    .resolves({ Item: { ...PAUSE_KEY, until: Date.now() + inMs, reason: 'MessageRejected' } });
const sends = () => ses.commandCalls(SendEmailCommand);
const pauseLines = () => logged().filter((line) => line.message === 'mail paused');

let deliver: (records: SQSRecord[]) => ReturnType<typeof import('../../../functions/mailer/handler').handler>;

beforeEach(async () => {
  vi.resetModules();
  stubEnvironment();
  const { handler } = await import('../../../functions/mailer/handler');
  deliver = (records) =>
    handler({ Records: records }, { awsRequestId: 'invocation-p', getRemainingTimeInMillis: () => 600_000 });
  dynamo.on(UpdateCommand).resolves({});
});

describe('a fault of SES’s set-up', () => {
  it.each(SETUP_FAULTS)(
    '%s leaves a confirmation owed and on its queue: never refused, never dead-lettered',
    async (name, fault) => {
      stored(PENDING);
      ses.on(SendEmailCommand).rejects(fault);
      const message = confirmation();

      expect(await deliver([message])).toEqual({
        batchItemFailures: [{ itemIdentifier: message.messageId }],
      });

      // Claimed only (after its link keys): not marked sent, nor owed no more.
      expect(waitlistUpdates().map((update) => update.UpdateExpression)).toEqual([
        expect.stringContaining('if_not_exists(linkId'),
        expect.stringMatching(/^SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash/),
      ]);
      expect(deadLetters()).toEqual([]);
      expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 60 })]);
      expect(logged()).toEqual([
        expect.objectContaining({ level: 'ERROR', outcome: 'paused', reason: name, MailPaused: 1 }),
      ]);
    },
  );

  it.each(SETUP_FAULTS)(
    '%s leaves the announcement owed: its claim released, nobody undeliverable, the pass going on',
    async (name, fault) => {
      const { id } = announcementSending();
      personClaimable();
      ses.on(SendEmailCommand).rejects(fault);
      const message = recipient(id);

      expect(await deliver([message])).toEqual({
        batchItemFailures: [{ itemIdentifier: message.messageId }],
      });

      expect(personUpdates().at(-1)).toBe('REMOVE announcing, announcingAt');
      expect(personUpdates().join()).not.toContain('announcementsUndeliverable');
      expect(waitlistUpdates().some((update) => update.Key?.email === announcementStateKey(id))).toBe(false);
      expect(progressOf(id)).toEqual([]);
      expect(deadLetters()).toEqual([]);
      expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 60 })]);
      expect(pauseLines()).toEqual([
        expect.objectContaining({ level: 'ERROR', reason: name, MailPaused: 1 }),
      ]);
    },
  );

  it('pauses every sender through the limit table: a minute, the error’s name, the table’s expiry, unless a pause is on', async () => {
    stored(PENDING);
    ses.on(SendEmailCommand).rejects(SETUP_FAULTS[0][1]);

    const before = Date.now();
    await deliver([confirmation()]);
    const after = Date.now();

    const [write, ...more] = pauseWrites();
    expect(more).toEqual([]);
    const until = Number(write?.Item?.until);
    expect(until).toBeGreaterThanOrEqual(before + 60_000);
    expect(until).toBeLessThanOrEqual(after + 60_000);
    expect(write).toEqual({
      TableName: LIMITS.TableName,
      Item: { ...PAUSE_KEY, until, reason: 'MessageRejected', expiresAt: Math.ceil(until / 1_000) + 60 },
      ConditionExpression: 'attribute_not_exists(#key) OR #until <= :now',
      ExpressionAttributeNames: { '#key': 'deliveryKeyHash', '#until': 'until' },
      ExpressionAttributeValues: { ':now': expect.any(Number) },
    });
    expect(logLines.join('\n')).not.toMatch(/bob@|Bob@/i);
  });

  it('counts a pause once: a send that finds another sender paused first is not logged again', async () => {
    stored(PENDING);
    ses.on(SendEmailCommand).rejects(SETUP_FAULTS[0][1]);
    dynamo
      .on(PutCommand, { ...LIMITS, Item: PAUSE_KEY })
      .rejects(new ConditionalCheckFailedException({ message: 'paused already', $metadata: {} }));
    const message = confirmation();

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 60 })]);
    expect(pauseLines()).toEqual([]);
  });

  it.each([
    [1, 60],
    [2, 120],
    [4, 480],
    [5, 900],
    [150, 900],
  ])(
    'gives the mail back at its %sth receive for %s s, and never to the dead-letter queue however often it came',
    async (receiveCount, seconds) => {
      stored(PENDING);
      ses.on(SendEmailCommand).rejects(SETUP_FAULTS[0][1]);

      await deliver([confirmation(receiveCount)]);

      expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: seconds })]);
      expect(deadLetters()).toEqual([]);
    },
  );
});

describe('while sending is paused', () => {
  it('sends no mail and claims none: each goes back for what is left of the pause, logged by nobody', async () => {
    pausedFor(300_000);
    stored(PENDING);
    const { id } = announcementSending();
    personClaimable();

    const result = await deliver([confirmation(), recipient(id)]);

    expect(result.batchItemFailures).toHaveLength(2);
    expect(sends()).toHaveLength(0);
    expect(waitlistUpdates()).toEqual([]);
    expect(visibilityChanges().map((change) => change.VisibilityTimeout)).toEqual([300, 300]);
    expect(deadLetters()).toEqual([]);
    expect(logged()).toEqual([]);
  });

  it('reads the pause at most every few seconds', async () => {
    pausedFor(300_000);

    await deliver([confirmation()]);
    await deliver([confirmation()]);

    expect(pauseReads()).toHaveLength(1);
  });

  it('resumes by itself once the pause has ended: the next mail goes, and no pause is written', async () => {
    pausedFor(-1_000);
    stored(PENDING);

    expect(await deliver([confirmation()])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(1);
    expect(pauseWrites()).toEqual([]);
  });

  it('pauses again when the mail after the pause meets the same fault', async () => {
    pausedFor(-1_000);
    stored(PENDING);
    ses.on(SendEmailCommand).rejects(SETUP_FAULTS[0][1]);

    await deliver([confirmation()]);

    expect(sends()).toHaveLength(1);
    expect(pauseWrites()).toHaveLength(1);
    expect(pauseLines()).toEqual([expect.objectContaining({ MailPaused: 1 })]);
  });
});

describe('SES’s quota for the day', () => {
  it('pauses every sender for a quarter of an hour when SES says it is spent, rather than trying again at the pace', async () => {
    stored(PENDING);
    ses
      .on(SendEmailCommand)
      .rejects(
        Object.assign(new Error('Daily message quota exceeded.'), { name: 'TooManyRequestsException' }),
      );

    const before = Date.now();
    await deliver([confirmation()]);

    expect(sends()).toHaveLength(1);
    expect(Number(pauseWrites()[0]?.Item?.until)).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(pauseWrites()[0]?.Item?.reason).toBe('DailyQuotaExceeded');
    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 900 })]);
    expect(pauseLines()).toEqual([
      expect.objectContaining({ level: 'ERROR', reason: 'DailyQuotaExceeded', MailPaused: 1 }),
    ]);
  });

  it('keeps a reserve for confirmations: the announcement waits once only that is left, counted once, while a confirmation goes', async () => {
    // 1,000 a day keeps 100; 900 went.
    ses
      .on(GetAccountCommand)
      .resolves({ SendQuota: { ...SEND_QUOTA, Max24HourSend: 1_000, SentLast24Hours: 900 } });
    stored(PENDING);
    const { id } = announcementSending();
    personClaimable();
    const bulk = recipient(id);

    const result = await deliver([bulk, confirmation()]);
    await deliver([recipient(id)]);

    // Read though MAIL_MAX_SEND_RATE sets the pace.
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: bulk.messageId }] });
    expect(sends()).toHaveLength(1);
    expect(sends()[0]?.args[0].input.Destination?.ToAddresses).toEqual(['Bob@example.nl']);
    expect(personUpdates()).toEqual([]);
    expect(visibilityChanges().map((change) => change.VisibilityTimeout)).toEqual([60, 60]);
    expect(pauseLines()).toEqual([
      expect.objectContaining({ level: 'WARN', reason: 'DailyQuotaReserve', MailPaused: 1 }),
    ]);
    expect(pauseWrites()).toEqual([]);
  });

  it('counts what it sent since it read the quota', async () => {
    // At one mail a second the pace's bound adds nothing within the test: only the count moves.
    stubEnvironment({ MAIL_MAX_SEND_RATE: '1' });
    ses
      .on(GetAccountCommand)
      .resolves({ SendQuota: { ...SEND_QUOTA, Max24HourSend: 1_000, SentLast24Hours: 899 } });
    const { id } = announcementSending();
    personClaimable();

    expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });
    expect((await deliver([recipient(id, 1, 'carol@example.nl')])).batchItemFailures).toHaveLength(1);

    expect(sends()).toHaveLength(1);
  });

  it('bounds what every sender together sent since the read by the pace, so other instances cannot spend the reserve unseen', () => {
    let now = 0;
    // 1,000 a day keeps 100; 800 went when read; the account sends at most 10 a second.
    const quota = dailyQuota(1_000, 800, 10, () => now);
    now = 5_000;
    expect(quota.reserveReached).toBe(false);
    now = 10_000;
    expect(quota.reserveReached).toBe(true);
    expect(dailyQuota(-1, 1e6, 10, () => now).reserveReached).toBe(false);
  });

  it('holds nothing back for an account SES sets no quota for the day (-1)', async () => {
    ses
      .on(GetAccountCommand)
      .resolves({ SendQuota: { ...SEND_QUOTA, Max24HourSend: -1, SentLast24Hours: 1e6 } });
    const { id } = announcementSending();
    personClaimable();

    expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(1);
    expect(personUpdates().at(-1)).toBe('ADD announcements :ids REMOVE announcing, announcingAt');
  });
});
