/**
 * The mailer as Lambda runs it: DynamoDB stream records in, SES v2 and the table mocked. It mails what a
 * pending record asks for, stores only the token's hash, and reports failures back to the stream.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { hashOfToken } from '../../../functions/confirm/confirmation-token';
import { capturedLogLines } from './captured-log';

vi.stubEnv('TABLE_NAME', 'waitlist-test');
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
const streamRecord = (image: WaitlistRecord, eventName: 'INSERT' | 'MODIFY' = 'INSERT'): DynamoDBRecord => ({
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: marshall({ email: image.email }) as never,
    NewImage: marshall(image, { removeUndefinedValues: true }) as never,
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

describe('the mailer', () => {
  it('mails a new pending signup, in its language, through the configuration set, storing only the token hash', async () => {
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
    const link = new URL(linkIn(raw) ?? '');
    expect(link.searchParams.get('lang')).toBe('nl');
    const token = link.searchParams.get('t') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{27}$/);

    const update = dynamo.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(update).toMatchObject({
      Key: { email: PENDING.email },
      ConditionExpression: 'mailRequestId = :id AND #status = :pending',
      ExpressionAttributeValues: { ':hash': hashOfToken(token), ':id': 'request-1' },
    });
    expect(JSON.stringify(update)).not.toContain(token);
  });

  it('mails again for a new request on a pending record (a resend), and not for its own update', async () => {
    dynamo.on(UpdateCommand).resolves({});
    ses.on(SendEmailCommand).resolves({});
    const resent = {
      ...PENDING,
      mailRequestId: 'request-2',
      mailedRequestId: 'request-1',
      mailsRequested: 2,
    };
    const ownUpdate = { ...resent, mailedRequestId: 'request-2', tokenHash: 'abc' };

    await handler({ Records: [streamRecord(resent, 'MODIFY'), streamRecord(ownUpdate, 'MODIFY')] });

    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('sends nothing for a confirmed record, or a request a newer one replaced', async () => {
    dynamo
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'newer', $metadata: {} }));
    const confirmed: WaitlistRecord = {
      ...PENDING,
      status: 'confirmed',
      confirmedAt: '2026-11-22T11:00:00Z',
    };

    expect(await handler({ Records: [streamRecord(confirmed, 'MODIFY'), streamRecord(PENDING)] })).toEqual({
      batchItemFailures: [],
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
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
