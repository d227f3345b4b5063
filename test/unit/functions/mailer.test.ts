/**
 * The mailer as Lambda runs it: DynamoDB stream records in, SES v2 and the tables mocked. It mails what a
 * pending record asks for, once, within the mailbox's limit, stores only hashes, and reports failures back
 * to the stream.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId, hashOfToken } from '../../../functions/confirm/confirmation-token';
import { parseLeaveToken } from '../../../functions/leave/leave-token';
import { capturedLogLines } from './captured-log';

vi.stubEnv('TABLE_NAME', 'waitlist-test');
vi.stubEnv('MAIL_LIMIT_TABLE_NAME', 'limits-test');
vi.stubEnv('SITE_URL', 'https://mandje.nl');
vi.stubEnv('MAIL_FROM', 'hallo@mandje.nl');
vi.stubEnv('CONTACT_EMAIL', 'hallo@mandje.nl');
vi.stubEnv('SES_CONFIGURATION_SET', 'mandje-mail');
const { handler } = await import('../../../functions/mailer/handler');

const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const logLines = capturedLogLines();

beforeEach(() => {
  dynamo.reset();
  ses.reset();
});

const PENDING: WaitlistRecord = {
  email: 'ann@xn--bcher-kva.de',
  emailAsEntered: 'Ann@Bücher.de',
  language: 'nl',
  createdAt: '2026-11-22T10:00:00.000Z',
  consentVersion: '2026-11-22.1',
  status: 'pending',
  expiresAt: 1_800_000_000,
  mailRequestId: 'request-1',
  mailRequestedAt: '2026-11-22T10:00:00.000Z',
  mailsRequested: 1,
};

let sequence = 0;
const streamRecord = (image: WaitlistRecord, before?: WaitlistRecord): DynamoDBRecord => ({
  eventName: before ? 'MODIFY' : 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: marshall({ email: image.email }) as never,
    NewImage: marshall(image, { removeUndefinedValues: true }) as never,
    ...(before ? { OldImage: marshall(before, { removeUndefinedValues: true }) as never } : {}),
    SequenceNumber: String(++sequence),
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
});
const sentRaw = (call = 0) =>
  Buffer.from(ses.commandCalls(SendEmailCommand)[call]?.args[0].input.Content?.Raw?.Data ?? []).toString();
/** The link in the plain-text part of a raw message. */
const linkIn = (raw: string) => {
  const text = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
  return Buffer.from(text.replace(/\r\n/g, ''), 'base64')
    .toString()
    .match(/https:\/\/mandje\.nl\/api\/confirm\?\S+/)?.[0];
};

const WAITLIST = { TableName: 'waitlist-test' };
const LIMITS = { TableName: 'limits-test' };
const waitlistUpdates = () => dynamo.commandCalls(UpdateCommand, WAITLIST).map((call) => call.args[0].input);
/** The mailer's own steps, without the link keys a record without them gets first. */
const mailSteps = () =>
  waitlistUpdates().filter((update) => !update.UpdateExpression?.includes('if_not_exists(linkId'));
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });

describe('the mailer', () => {
  it('mails a new pending signup in its language through the configuration set: claim, send, then mark it sent', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });

    expect(await handler({ Records: [streamRecord(PENDING)] })).toEqual({ batchItemFailures: [] });

    const send = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
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

    const [claim, mark] = mailSteps();
    expect(claim).toMatchObject({
      Key: { email: PENDING.email },
      UpdateExpression:
        'SET linkId = :linkId, tokenHash = :linkHash, pendingTokenHash = :hash, leaveKey = if_not_exists(leaveKey, :leaveKey)',
      ExpressionAttributeValues: { ':hash': hashOfToken(token), ':id': 'request-1' },
    });
    const linkId = String(claim?.ExpressionAttributeValues?.[':linkId']);
    expect(claim?.ExpressionAttributeValues?.[':linkHash']).toBe(hashOfLinkId(linkId));
    // Only once it went out does the token join the record's mailed tokens.
    expect(mark).toMatchObject({
      Key: { email: PENDING.email },
      ConditionExpression: 'pendingTokenHash = :hash',
      ExpressionAttributeValues: { ':id': 'request-1', ':hashes': [hashOfToken(token)] },
    });
    expect(mark?.UpdateExpression).toContain('list_append');
    expect(JSON.stringify(waitlistUpdates())).not.toContain(token);
  });

  it('puts the person’s leave link in the confirmation mail, with the RFC 8058 headers, keeping the record’s leave key', async () => {
    const leaveKey = 'BBBBBBBBBBBBBBBBBBBBBA';
    dynamo.on(UpdateCommand, WAITLIST).resolves({ Attributes: { leaveKey } });
    dynamo.on(UpdateCommand, LIMITS).resolves({});
    ses.on(SendEmailCommand).resolves({});

    await handler({ Records: [streamRecord(PENDING)] });

    const raw = sentRaw();
    const leave = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? '';
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const url = new URL(leave);
    expect(url.pathname).toBe('/api/leave');
    expect(url.searchParams.get('lang')).toBe('nl');
    expect(parseLeaveToken(url.searchParams.get('t') ?? '')?.leaveKey).toBe(leaveKey);
    expect(leave).not.toMatch(/ann|bcher/i);
  });

  it('takes the link keys another mail made since the stream’s image, rather than its own', async () => {
    const linkId = 'CCCCCCCCCCCCCCCCCCCCCA';
    const leaveKey = 'BBBBBBBBBBBBBBBBBBBBBA';
    dynamo.on(UpdateCommand, WAITLIST).resolves({ Attributes: { linkId, leaveKey } });
    dynamo.on(UpdateCommand, LIMITS).resolves({});
    ses.on(SendEmailCommand).resolves({});

    await handler({ Records: [streamRecord(PENDING)] });

    const [claim] = mailSteps();
    expect(claim?.ExpressionAttributeValues).toMatchObject({ ':linkId': linkId, ':leaveKey': leaveKey });
  });

  it('mails a leave link the privacy page asked for, once, within the mailbox’s limit', async () => {
    const confirmed: WaitlistRecord = { ...PENDING, status: 'confirmed', linkId: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const asked = {
      ...confirmed,
      leaveMailRequestId: 'leave-1',
      leaveMailRequestedAt: '2026-11-24T10:00:00Z',
    };
    dynamo
      .on(UpdateCommand, WAITLIST)
      .resolvesOnce({ Attributes: { linkId: confirmed.linkId, leaveKey: 'BBBBBBBBBBBBBBBBBBBBBA' } })
      .resolves({});
    dynamo.on(UpdateCommand, LIMITS).resolves({});
    ses.on(SendEmailCommand).resolves({});

    await handler({ Records: [streamRecord(asked, confirmed)] });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    const raw = sentRaw();
    expect(raw).toContain('Message-ID: <leave-1@mandje.nl>');
    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/mandje\.nl\/api\/leave\?lang=nl&t=[\w-]{43}>/m);
    const [keys, done] = waitlistUpdates();
    expect(keys?.ConditionExpression).toContain('leaveMailRequestId = :id');
    expect(done).toMatchObject({ UpdateExpression: 'SET leaveMailedRequestId = :id' });
    expect(logLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ message: 'leave-link mail', outcome: 'sent', MailSent: 1 }),
    ]);
  });

  it('counts leave-link mails apart from confirmation mails, so a stranger’s signups cannot keep the owner from leaving', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({});
    const asked: WaitlistRecord = { ...PENDING, status: 'confirmed', leaveMailRequestId: 'leave-1' };

    await handler({
      Records: [streamRecord(PENDING), streamRecord(asked, { ...asked, leaveMailRequestId: undefined })],
    });

    const [confirmation, leaveLink] = dynamo
      .commandCalls(UpdateCommand, LIMITS)
      .map((call) => call.args[0].input.Key);
    expect(confirmation).not.toEqual(leaveLink);
  });

  it('sends no second leave link when the stream hands the same request again after it went', async () => {
    const asked: WaitlistRecord = { ...PENDING, status: 'confirmed', leaveMailRequestId: 'leave-1' };
    dynamo.on(UpdateCommand, WAITLIST).rejects(conditionFailed());
    dynamo.on(UpdateCommand, LIMITS).resolves({});

    await handler({ Records: [streamRecord(asked, { ...asked, leaveMailRequestId: undefined })] });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('keeps the link id of the earlier mails in a resend, so the links the person has go on working', async () => {
    const linkId = 'AAAAAAAAAAAAAAAAAAAAAA';
    const leaveKey = 'BBBBBBBBBBBBBBBBBBBBBA';
    dynamo.on(UpdateCommand).resolves({ Attributes: { linkId, leaveKey } });
    ses.on(SendEmailCommand).resolves({});
    const mailed = { ...PENDING, linkId, leaveKey, mailedRequestId: 'request-1', mailTokenHashes: ['h1'] };
    const resent = { ...mailed, mailRequestId: 'request-2', mailsRequested: 2 };

    await handler({ Records: [streamRecord(resent, mailed)] });

    const [claim] = mailSteps();
    expect(claim?.ExpressionAttributeValues).toMatchObject({ ':linkId': linkId, ':id': 'request-2' });
    const token = new URL(linkIn(sentRaw()) ?? '').searchParams.get('t') ?? '';
    expect(Buffer.from(token, 'base64url').subarray(4, 20).toString('base64url')).toBe(linkId);
  });

  it('mails a new request on a pending record, and nothing for its own claim and mark, which keep the request', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({});
    const mailed = { ...PENDING, mailedRequestId: 'request-1' };
    const resent = { ...mailed, mailRequestId: 'request-2', mailsRequested: 2 };
    const claimed = { ...resent, linkId: 'AAAAAAAAAAAAAAAAAAAAAA', mailTokenHashes: ['h'] };
    const marked = { ...claimed, mailedRequestId: 'request-2' };

    await handler({
      Records: [streamRecord(resent, mailed), streamRecord(claimed, resent), streamRecord(marked, claimed)],
    });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('sends nothing for a confirmed record, or a request a newer one replaced', async () => {
    dynamo.on(UpdateCommand, WAITLIST).rejects(conditionFailed());
    dynamo.on(UpdateCommand, LIMITS).resolves({});
    const confirmed: WaitlistRecord = {
      ...PENDING,
      status: 'confirmed',
      confirmedAt: '2026-11-22T11:00:00Z',
    };

    expect(await handler({ Records: [streamRecord(confirmed, PENDING), streamRecord(PENDING)] })).toEqual({
      batchItemFailures: [],
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(mailSteps()).toHaveLength(1);
  });

  it('sends nothing to a mailbox past its limit, owes it nothing, and counts it', async () => {
    dynamo.on(UpdateCommand, LIMITS).rejects(conditionFailed());
    dynamo.on(UpdateCommand, WAITLIST).resolves({});

    expect(await handler({ Records: [streamRecord(PENDING)] })).toEqual({ batchItemFailures: [] });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(waitlistUpdates()).toEqual([
      expect.objectContaining({ UpdateExpression: 'SET mailedRequestId = :id' }),
    ]);
    expect(logLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ outcome: 'limited', MailLimited: 1 }),
    ]);
  });

  it('counts the mailbox, not its spelling, and never stores the address in the limit table', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({});
    const spelled = (key: string): WaitlistRecord => ({ ...PENDING, email: key, emailAsEntered: key });

    await handler({
      Records: [streamRecord(spelled('a.nn+x@gmail.com')), streamRecord(spelled('ann+y@googlemail.com'))],
    });

    const keys = dynamo.commandCalls(UpdateCommand, LIMITS).map((call) => call.args[0].input.Key);
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(1);
    expect(JSON.stringify(keys)).not.toMatch(/ann|gmail/);
  });

  it('sends nothing to a mailbox that bounced or complained, and owes it nothing', async () => {
    dynamo.on(UpdateCommand).resolves({});
    const bounced: WaitlistRecord = { ...PENDING, mailSuppressed: 'bounce' };

    await handler({ Records: [streamRecord(bounced)] });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand, LIMITS)).toHaveLength(0);
    expect(logLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ outcome: 'suppressed', MailSuppressed: 1 }),
    ]);
  });

  it('reports the first mail that fails and stops there, so the stream retries it and nothing is sent twice', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses
      .on(SendEmailCommand)
      .rejectsOnce(
        Object.assign(new Error('Maximum sending rate exceeded'), { name: 'TooManyRequestsException' }),
      )
      .resolves({});
    const first = streamRecord(PENDING);
    const second = streamRecord({ ...PENDING, email: 'bob@example.nl', emailAsEntered: 'bob@example.nl' });

    const result = await handler({ Records: [first, second] });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: first.dynamodb?.SequenceNumber }] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    // Claimed, not marked: the request is still owed.
    expect(waitlistUpdates().some((update) => update.UpdateExpression?.includes('mailedRequestId'))).toBe(
      false,
    );
    expect(logLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'confirmation mail',
        outcome: 'failed',
        errorName: 'TooManyRequestsException',
        MailFailed: 1,
        FaultClass: 'throttled',
      }),
    ]);
  });

  it('reports a store failure as a failed mail too', async () => {
    dynamo.on(UpdateCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    const record = streamRecord(PENDING);
    expect(await handler({ Records: [record] })).toEqual({
      batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber }],
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('logs one line per record, never the address or the token', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({});

    await handler({ Records: [streamRecord(PENDING)] });

    expect(logLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'confirmation mail', outcome: 'sent', MailSent: 1 }),
    ]);
    expect(logLines.join('\n')).not.toMatch(/b(ü|xn--)/i);
  });
});
