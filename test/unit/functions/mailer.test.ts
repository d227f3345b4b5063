/**
 * The mailer as Lambda runs it for the priority queue: jobs {kind, key, requestId} in, the record read
 * when the mail goes, SES v2, the tables and SQS mocked. It mails what a record still owes, once, within
 * the mailbox's limit and at the priority lane's pace; waits out throttling; gives a message back to its queue,
 * later and later, for a fault that may pass; and moves only a mail that can never go to the dead-letter
 * queue, saying why.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BadRequestException, GetAccountCommand, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { LATE_MAIL_MINUTES, MAILER_CONCURRENCY, PACE_SHARE } from '#contract/mail-pace';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId } from '../../../functions/confirm/confirmation-token';
import { parseLeaveToken } from '../../../functions/leave/leave-token';
import type { MailJob } from '../../../functions/mailer/mail-job';
import { mailboxHash, mailboxHashOf } from '../../../functions/store/mailbox';
import { readEmf } from './cloudwatch-emf';
import {
  DEAD_LETTER_QUEUE_URL,
  deadLetters,
  deliver,
  dynamo,
  LIMITS,
  logged,
  logLines,
  QUEUE_URL,
  queueMessage,
  sendMoments,
  ses,
  stored,
  stubEnvironment,
  visibilityChanges,
  WAITLIST,
  waitlistUpdates,
} from './mailer-under-test';

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
const LINK_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const LEAVE_KEY = 'BBBBBBBBBBBBBBBBBBBBBA';

const confirmationJob = (record: WaitlistRecord, requestId = record.mailRequestId ?? ''): MailJob => ({
  kind: 'confirmation',
  key: record.email,
  requestId,
});
const leaveLinkJob = (record: WaitlistRecord, requestId = record.leaveMailRequestId ?? ''): MailJob => ({
  kind: 'leave-link',
  key: record.email,
  requestId,
});

const sesSends = () => ses.commandCalls(SendEmailCommand);
const sentRaw = (call = 0) =>
  Buffer.from(sesSends()[call]?.args[0].input.Content?.Raw?.Data ?? []).toString();
/** The link in the plain-text part of a raw message. */
const linkIn = (raw: string) => {
  const text = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
  return Buffer.from(text.replace(/\r\n/g, ''), 'base64')
    .toString()
    .match(/https:\/\/mandje\.nl\/api\/confirm\?\S+/)?.[0];
};
/** The mailer's own steps, without the link keys a record without them gets first. */
const mailSteps = () =>
  waitlistUpdates().filter((update) => !update.UpdateExpression?.includes('if_not_exists(linkId'));
const limitKeys = () => dynamo.commandCalls(UpdateCommand, LIMITS).map((call) => call.args[0].input.Key);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
const throttling = () =>
  Object.assign(new Error('Maximum sending rate exceeded.'), {
    name: 'TooManyRequestsException',
    $fault: 'client',
  });
const NOTHING_FAILED = { batchItemFailures: [] };

describe('the mailer: confirmation mails', () => {
  it('mails a new pending signup in its language through the configuration set: claim, paced send, then mark it sent', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    let stepsAtSend = -1;
    ses.on(SendEmailCommand).callsFake(() => {
      stepsAtSend = mailSteps().length;
      return { MessageId: 'ses-1' };
    });

    expect(await deliver([queueMessage(confirmationJob(PENDING))])).toEqual(NOTHING_FAILED);

    expect(dynamo.commandCalls(GetCommand, WAITLIST)[0]?.args[0].input).toMatchObject({
      Key: { email: PENDING.email },
      ConsistentRead: true,
    });
    const send = sesSends()[0]?.args[0].input;
    expect(send).toMatchObject({
      FromEmailAddress: 'hallo@mandje.nl',
      Destination: { ToAddresses: ['Ann@xn--bcher-kva.de'] },
      ConfigurationSetName: 'mandje-mail',
    });
    const raw = sentRaw();
    expect(raw).toContain('Subject: Bevestig je aanmelding voor de wachtlijst van Mandje');
    // One id per request: a repeat of this mail is recognisably the same mail.
    expect(raw).toContain('Message-ID: <request-1@mandje.nl>');
    const link = new URL(linkIn(raw) ?? '');
    expect(link.searchParams.get('lang')).toBe('nl');
    const token = link.searchParams.get('t') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{48}$/);

    // Claimed before it went; marked only after. What claiming and marking leave in the record is pinned
    // against a real store: test/integration/mail-core.test.ts.
    expect(stepsAtSend).toBe(1);
    expect(mailSteps()).toHaveLength(2);
    expect(mailSteps().every((update) => update.Key?.email === PENDING.email)).toBe(true);
    expect(JSON.stringify(waitlistUpdates())).not.toContain(token);
    expect(deadLetters()).toEqual([]);
    expect(visibilityChanges()).toEqual([]);
  });

  it('puts the person’s leave link in the confirmation mail, with the RFC 8058 headers, keeping the record’s leave key', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand, WAITLIST).resolves({ Attributes: { leaveKey: LEAVE_KEY } });
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    await deliver([queueMessage(confirmationJob(PENDING))]);

    const raw = sentRaw();
    const leave = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? '';
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const url = new URL(leave);
    expect(url.pathname).toBe('/api/leave');
    expect(url.searchParams.get('lang')).toBe('nl');
    expect(parseLeaveToken(url.searchParams.get('t') ?? '')?.leaveKey).toBe(LEAVE_KEY);
    // The link names no part of the address (its random token may hold any three letters, never an @).
    expect(leave).not.toMatch(/ann@|ann%40|bcher-kva|b%C3%BCcher/i);
  });

  it('takes the link keys another mail made since the record was read, rather than its own', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand, WAITLIST).resolves({ Attributes: { linkId: LINK_ID, leaveKey: LEAVE_KEY } });
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    await deliver([queueMessage(confirmationJob(PENDING))]);

    const token = new URL(linkIn(sentRaw()) ?? '').searchParams.get('t') ?? '';
    expect(Buffer.from(token, 'base64url').subarray(4, 20).toString('base64url')).toBe(LINK_ID);
    const leave = new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(sentRaw())?.[1] ?? 'https://missing');
    expect(parseLeaveToken(leave.searchParams.get('t') ?? '')).toEqual({
      linkHash: hashOfLinkId(LINK_ID),
      leaveKey: LEAVE_KEY,
    });
  });

  it('keeps the link id of the earlier mails in a resend, so the links the person has go on working', async () => {
    const resent: WaitlistRecord = {
      ...PENDING,
      linkId: LINK_ID,
      leaveKey: LEAVE_KEY,
      mailedRequestId: 'request-1',
      mailTokenHashes: ['h1'],
      mailRequestId: 'request-2',
      mailsRequested: 2,
    };
    stored(resent);
    dynamo.on(UpdateCommand).resolves({ Attributes: { linkId: LINK_ID, leaveKey: LEAVE_KEY } });

    await deliver([queueMessage(confirmationJob(resent))]);

    // The record's keys as they are (that they stay in the record: test/integration/mail-core.test.ts).
    const token = new URL(linkIn(sentRaw()) ?? '').searchParams.get('t') ?? '';
    expect(Buffer.from(token, 'base64url').subarray(4, 20).toString('base64url')).toBe(LINK_ID);
  });

  it('sends nothing for a confirmed record, a request a newer one replaced, a mail already sent, or a record gone', async () => {
    const confirmed: WaitlistRecord = {
      ...PENDING,
      email: 'confirmed@example.nl',
      status: 'confirmed',
      confirmedAt: '2026-11-24T09:30:00Z',
    };
    const replaced: WaitlistRecord = { ...PENDING, email: 'replaced@example.nl', mailRequestId: 'request-2' };
    const sent: WaitlistRecord = { ...PENDING, email: 'sent@example.nl', mailedRequestId: 'request-1' };
    for (const record of [confirmed, replaced, sent]) stored(record);

    const result = await deliver([
      queueMessage(confirmationJob(confirmed)),
      queueMessage(confirmationJob(replaced, 'request-1')),
      queueMessage(confirmationJob(sent)),
      queueMessage(confirmationJob({ ...PENDING, email: 'gone@example.nl' })),
    ]);

    expect(result).toEqual(NOTHING_FAILED);
    expect(dynamo.commandCalls(GetCommand, WAITLIST)).toHaveLength(4);
    expect(sesSends()).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(deadLetters()).toEqual([]);
  });

  it('sends nothing when a newer request or a confirmation wins the claim after the record was read', async () => {
    stored({ ...PENDING, linkId: LINK_ID, leaveKey: LEAVE_KEY });
    dynamo.on(UpdateCommand, WAITLIST).rejects(conditionFailed());
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    expect(await deliver([queueMessage(confirmationJob(PENDING))])).toEqual(NOTHING_FAILED);

    expect(mailSteps()).toHaveLength(1);
    expect(sesSends()).toHaveLength(0);
    expect(deadLetters()).toEqual([]);
  });

  it('sends nothing to a mailbox past its limit, owes it nothing, and counts it', async () => {
    stored(PENDING);
    const recently = Date.now() - 60_000;
    dynamo
      .on(GetCommand, { ...LIMITS, Key: { deliveryKeyHash: mailboxHash('limit', PENDING.email) } })
      .resolves({
        Item: {
          sends: ['a', 'b', 'c'].map((requestId) => ({ requestId, sentAt: recently })),
          version: 3,
        },
      });
    dynamo.on(UpdateCommand, WAITLIST).resolves({});

    expect(await deliver([queueMessage(confirmationJob(PENDING))])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(0);
    // Marked owed no more (what that leaves in the record: test/integration/mail-core.test.ts).
    expect(waitlistUpdates()).toHaveLength(1);
    expect(deadLetters()).toEqual([]);
    expect(logged()).toEqual([expect.objectContaining({ outcome: 'limited', MailLimited: 1 })]);
  });

  it('counts the mailbox, not its spelling, and never stores the address in the limit table', async () => {
    const spelled = (key: string): WaitlistRecord => ({ ...PENDING, email: key, emailAsEntered: key });
    stored(spelled('a.nn+x@gmail.com'));
    stored(spelled('ann+y@googlemail.com'));
    dynamo.on(UpdateCommand).resolves({});

    await deliver([
      queueMessage(confirmationJob(spelled('a.nn+x@gmail.com'))),
      queueMessage(confirmationJob(spelled('ann+y@googlemail.com'))),
    ]);

    expect(sesSends()).toHaveLength(2);
    const keys = limitKeys();
    expect(keys).toHaveLength(2);
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(1);
    const limitTableCalls = dynamo
      .calls()
      .filter((call) => JSON.stringify(call.args[0].input).includes('limits-test'));
    expect(JSON.stringify(limitTableCalls.map((call) => call.args[0].input))).not.toMatch(/ann|gmail/);
  });

  it('sends nothing to a mailbox that bounced or complained, owes it nothing, and moves the job to the dead-letter queue', async () => {
    const bounced: WaitlistRecord = { ...PENDING, mailSuppressed: 'bounce' };
    stored(bounced);
    dynamo.on(UpdateCommand).resolves({});
    const message = queueMessage(confirmationJob(bounced));

    expect(await deliver([message])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand, LIMITS)).toHaveLength(0);
    // Marked owed no more (what that leaves in the record: test/integration/mail-core.test.ts).
    expect(waitlistUpdates()).toHaveLength(1);
    expect(deadLetters()).toEqual([
      {
        queueUrl: DEAD_LETTER_QUEUE_URL,
        body: message.body,
        mailClass: 'confirmation',
        reason: 'suppressed',
      },
    ]);
    expect(visibilityChanges()).toEqual([]);
    expect(logged()).toEqual([expect.objectContaining({ outcome: 'suppressed', MailSuppressed: 1 })]);
  });

  it('moves a mail SES refuses for good to the dead-letter queue, owes it no more, and never sends it again', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).rejects(new BadRequestException({ message: 'Illegal address', $metadata: {} }));
    const message = queueMessage(confirmationJob(PENDING));

    expect(await deliver([message])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(1);
    // Claimed, then marked owed no more (test/integration/mail-core.test.ts).
    expect(mailSteps()).toHaveLength(2);
    expect(deadLetters()).toEqual([
      { queueUrl: DEAD_LETTER_QUEUE_URL, body: message.body, mailClass: 'confirmation', reason: 'refused' },
    ]);
    expect(visibilityChanges()).toEqual([]);
    expect(logged()).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        outcome: 'refused',
        errorName: 'BadRequestException',
        MailRefused: 1,
      }),
    ]);
    expect(logged()[0]).not.toHaveProperty('MailSent');
  });

  it('waits out SES throttling and sends the same mail again at its next turn, counting it, never dead-lettered', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).rejectsOnce(throttling()).resolves({ MessageId: 'ses-2' });

    expect(await deliver([queueMessage(confirmationJob(PENDING))])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(2);
    expect(sentRaw(1)).toBe(sentRaw(0));
    // Claimed once and marked sent once, though it went twice.
    expect(mailSteps()).toHaveLength(2);
    expect(deadLetters()).toEqual([]);
    expect(visibilityChanges()).toEqual([]);
    expect(logged()).toEqual([
      expect.objectContaining({ level: 'INFO', outcome: 'sent', MailSent: 1, MailThrottled: 1 }),
    ]);
  });

  it('moves a job that has failed a hundred times with a permanent fault to the dead-letter queue as failing, counted with the refusals, instead of cycling on', async () => {
    dynamo
      .on(GetCommand, WAITLIST)
      .rejects(
        Object.assign(new Error('no such table'), { name: 'ResourceNotFoundException', $fault: 'client' }),
      );
    const message = queueMessage(confirmationJob(PENDING), { receiveCount: 100 });

    expect(await deliver([message])).toEqual({ batchItemFailures: [] });

    expect(deadLetters()).toEqual([
      expect.objectContaining({ mailClass: 'confirmation', reason: 'failing' }),
    ]);
    expect(visibilityChanges()).toEqual([]);
    expect(logged()).toEqual([
      expect.objectContaining({ level: 'ERROR', outcome: 'refused', MailRefused: 1 }),
    ]);
  });

  it('keeps a job whose receives a long pause ran up on its queue when a fault that may pass comes', async () => {
    dynamo
      .on(GetCommand, WAITLIST)
      .rejects(Object.assign(new Error('internal'), { name: 'InternalServerError', $fault: 'server' }));
    const message = queueMessage(confirmationJob(PENDING), { receiveCount: 150 });

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    expect(deadLetters()).toEqual([]);
    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 900 })]);
  });

  it.each([
    [1, 30],
    [2, 60],
    [3, 120],
    [5, 480],
    [6, 900],
    [20, 900],
  ])(
    'gives a message back to its queue after a store fault, at its %sth receive for %s s',
    async (receiveCount, seconds) => {
      dynamo
        .on(GetCommand, WAITLIST)
        .rejects(Object.assign(new Error('internal'), { name: 'InternalServerError', $fault: 'server' }));
      const message = queueMessage(confirmationJob(PENDING), { receiveCount });

      expect(await deliver([message])).toEqual({
        batchItemFailures: [{ itemIdentifier: message.messageId }],
      });

      expect(visibilityChanges()).toEqual([
        { QueueUrl: QUEUE_URL, ReceiptHandle: message.receiptHandle, VisibilityTimeout: seconds },
      ]);
      expect(sesSends()).toHaveLength(0);
      expect(deadLetters()).toEqual([]);
      expect(logged()).toEqual([
        expect.objectContaining({
          level: 'ERROR',
          outcome: 'failed',
          errorName: 'InternalServerError',
          MailFailed: 1,
          FaultClass: 'service_fault',
        }),
      ]);
    },
  );

  it('gives a mail back, claimed but not marked, when SES fails on its side, so it is still owed', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('unavailable'), { name: 'ServiceUnavailable', $fault: 'server' }));
    const message = queueMessage(confirmationJob(PENDING));

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    // Claimed, never marked: still owed (test/integration/mail-core.test.ts).
    expect(mailSteps()).toHaveLength(1);
    expect(deadLetters()).toEqual([]);
    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 30 })]);
  });

  it('gives a mail back when SES gave no answer, so it is sent again: the link of the first try keeps working', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('late'), { name: 'TimeoutError' }));
    const message = queueMessage(confirmationJob(PENDING));

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    // Claimed, never marked: the next try lists this try's token as mailed (send-owed-mail.ts claim).
    expect(mailSteps()).toHaveLength(1);
    expect(deadLetters()).toEqual([]);
    expect(logged()).toEqual([
      expect.objectContaining({ outcome: 'failed', FaultClass: 'timeout', MailFailed: 1 }),
    ]);
  });

  it('starts no mail when the invocation’s time is short, and gives the message back at once', async () => {
    stored(PENDING);
    const message = queueMessage(confirmationJob(PENDING));

    const result = await deliver([message], { remainingMs: 5_000 });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });
    expect(dynamo.commandCalls(GetCommand, WAITLIST)).toHaveLength(0);
    expect(sesSends()).toHaveLength(0);
    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 0 })]);
  });

  it('sends a late mail all the same, and counts it late with a warning', async () => {
    const late: WaitlistRecord = { ...PENDING, mailRequestedAt: agoIso(2 * 60 * 60_000) };
    stored(late);
    dynamo.on(UpdateCommand).resolves({});

    expect(await deliver([queueMessage(confirmationJob(late))])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(1);
    const [line] = logged();
    expect(line).toMatchObject({ level: 'WARN', outcome: 'sent', MailSent: 1, MailLate: 1 });
    expect(line?.MailLag).toBeGreaterThanOrEqual(2 * 60 * 60_000);
    expect(line?.MailLag).toBeLessThan(2 * 60 * 60_000 + 60_000);
    expect(deadLetters()).toEqual([]);
  });

  it('says on its line how far the mail lagged behind its request, as a metric in milliseconds', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});

    await deliver([queueMessage(confirmationJob(PENDING))]);

    expect(logLines).toHaveLength(1);
    const points = readEmf(logLines[0] as string);
    const lag = points.find((point) => point.name === 'MailLag');
    expect(lag).toMatchObject({ unit: 'Milliseconds', dimensions: { Service: 'mailer' } });
    expect(lag?.value).toBeGreaterThanOrEqual(5_000);
    expect(lag?.value).toBeLessThan(LATE_MAIL_MINUTES * 60_000);
    expect(points.map((point) => point.name)).not.toContain('MailLate');
    expect(logged()[0]).toMatchObject({ level: 'INFO' });
  });

  it('logs one line per mail, never the address or the token', async () => {
    const bob: WaitlistRecord = { ...PENDING, email: 'bob@example.nl', emailAsEntered: 'Bob@Example.nl' };
    stored(PENDING);
    stored(bob);
    dynamo.on(UpdateCommand).resolves({});

    await deliver([queueMessage(confirmationJob(PENDING)), queueMessage(confirmationJob(bob))]);

    expect(logged()).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'confirmation mail', outcome: 'sent', MailSent: 1 }),
      expect.objectContaining({ level: 'INFO', message: 'confirmation mail', outcome: 'sent', MailSent: 1 }),
    ]);
    const tokens = [0, 1].map((call) => new URL(linkIn(sentRaw(call)) ?? '').searchParams.get('t') ?? '');
    expect(tokens.every((token) => token.length === 48)).toBe(true);
    const log = logLines.join('\n');
    expect(log).not.toMatch(/b(ü|xn--)|bob|example\.nl/i);
    for (const token of tokens) expect(log).not.toContain(token);
  });
});

describe('the mailer: leave-link mails', () => {
  const confirmed: WaitlistRecord = { ...PENDING, status: 'confirmed', linkId: LINK_ID };
  const asked: WaitlistRecord = {
    ...confirmed,
    leaveMailRequestId: 'leave-1',
    leaveMailRequestedAt: agoIso(3_000),
  };

  it('mails a leave link the privacy page asked for, once, within the mailbox’s limit', async () => {
    stored(asked);
    dynamo
      .on(UpdateCommand, WAITLIST)
      .resolvesOnce({ Attributes: { linkId: LINK_ID, leaveKey: LEAVE_KEY } })
      .resolves({});
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    expect(await deliver([queueMessage(leaveLinkJob(asked))])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(1);
    const raw = sentRaw();
    expect(raw).toContain('Message-ID: <leave-1@mandje.nl>');
    const leave = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? '';
    expect(parseLeaveToken(new URL(leave).searchParams.get('t') ?? '')).toMatchObject({
      linkHash: hashOfLinkId(LINK_ID),
      leaveKey: LEAVE_KEY,
    });
    expect(limitKeys()).toEqual([{ deliveryKeyHash: mailboxHash('limit', asked.email) }]);
    // The keys, then the request done (what that leaves in the record: test/integration/mail-core.test.ts).
    expect(waitlistUpdates()).toHaveLength(2);
    expect(logged()).toEqual([
      expect.objectContaining({ message: 'leave-link mail', outcome: 'sent', MailSent: 1 }),
    ]);
  });

  it('counts leave-link mails and confirmation mails in one budget, the mailbox’s', async () => {
    const both: WaitlistRecord = { ...PENDING, leaveMailRequestId: 'leave-1' };
    stored(both);
    dynamo.on(UpdateCommand).resolves({});

    await deliver([queueMessage(confirmationJob(both)), queueMessage(leaveLinkJob(both))]);

    expect(sesSends()).toHaveLength(2);
    expect(limitKeys()).toEqual([
      { deliveryKeyHash: mailboxHash('limit', both.email) },
      { deliveryKeyHash: mailboxHash('limit', both.email) },
    ]);
  });

  it('sends no second leave link when the queue hands the same job over again after it went', async () => {
    stored({ ...asked, leaveMailedRequestId: 'leave-1' });

    expect(await deliver([queueMessage(leaveLinkJob(asked))])).toEqual(NOTHING_FAILED);

    expect(sesSends()).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(deadLetters()).toEqual([]);
  });

  it('sends no second leave link when the other delivery’s mail went between the read and the keys', async () => {
    stored(asked);
    dynamo.on(UpdateCommand, WAITLIST).rejects(conditionFailed());
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    expect(await deliver([queueMessage(leaveLinkJob(asked))])).toEqual(NOTHING_FAILED);

    expect(waitlistUpdates()).toHaveLength(1);
    expect(sesSends()).toHaveLength(0);
    expect(deadLetters()).toEqual([]);
  });
});

describe('the mailer: what is none of its mail', () => {
  it.each([
    ['not JSON', 'not json {'],
    ['a job without an address', JSON.stringify({ kind: 'confirmation', key: 'nobody', requestId: 'r' })],
    [
      'a kind it does not send',
      JSON.stringify({ kind: 'newsletter', key: 'ann@example.nl', requestId: 'r' }),
    ],
  ])('moves %s to the dead-letter queue as unreadable, touching nothing', async (_what, body) => {
    const message = queueMessage(body);

    expect(await deliver([message])).toEqual(NOTHING_FAILED);

    expect(deadLetters()).toEqual([
      { queueUrl: DEAD_LETTER_QUEUE_URL, body, mailClass: 'unknown', reason: 'unreadable' },
    ]);
    expect(dynamo.calls()).toHaveLength(0);
    expect(sesSends()).toHaveLength(0);
    expect(logged()).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'unreadable message', outcome: 'unreadable' }),
    ]);
  });

  it('starts the priority jobs of a mixed batch before its announcement messages', async () => {
    stored(PENDING);
    dynamo.on(UpdateCommand).resolves({});
    const announcement = queueMessage({ id: 'launch-mixed', pass: 1, key: 'carol@example.nl' });

    await deliver([announcement, queueMessage(confirmationJob(PENDING))]);

    const reads = dynamo.commandCalls(GetCommand).map((call) => call.args[0].input.Key?.email);
    expect(reads.slice(0, 2)).toEqual([PENDING.email, '#announcement#launch-mixed']);
  });
});

describe('the mailer’s pace', () => {
  it('without MAIL_MAX_SEND_RATE keeps the rate SES’s GetAccount gives, read once for the container', async () => {
    vi.resetModules();
    stubEnvironment({ MAIL_MAX_SEND_RATE: '' });
    const { handler } = await import('../../../functions/mailer/handler');
    ses
      .on(GetAccountCommand)
      .resolves({ SendQuota: { MaxSendRate: 2, Max24HourSend: 200, SentLast24Hours: 0 } });
    const bob: WaitlistRecord = { ...PENDING, email: 'bob@example.nl', emailAsEntered: 'bob@example.nl' };
    stored(PENDING);
    stored(bob);
    dynamo.on(UpdateCommand).resolves({});
    const context = { awsRequestId: 'invocation-2', getRemainingTimeInMillis: () => 600_000 };

    const sends = sendMoments();
    await handler({ Records: [queueMessage(confirmationJob(PENDING))] }, context);
    await handler({ Records: [queueMessage(confirmationJob(bob))] }, context);

    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
    // Two mails a second, a little under, shared by MAILER_CONCURRENCY instances: this one's turns come
    // MAILER_CONCURRENCY / (2 × PACE_SHARE) seconds apart, kept from one invocation to the next.
    const spacing = (MAILER_CONCURRENCY * 1_000) / (2 * PACE_SHARE);
    sends.expectGapOfAtLeast(spacing);
  });
});
