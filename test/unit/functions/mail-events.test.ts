/**
 * SES's events for sent mail, as EventBridge delivers them, the tables mocked: a permanent bounce or a
 * complaint suppresses the mailbox, every spelling of it, for good, and marks the record that was mailed, so
 * nothing more is sent to it; every kind is counted, no address logged or stored with the suppression.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { capturedLogLines } from './captured-log';

vi.stubEnv('TABLE_NAME', 'waitlist-test');
vi.stubEnv('MAIL_LIMIT_TABLE_NAME', 'limits-test');
const { handler } = await import('../../../functions/mail-events/handler');
type MailEvent = Parameters<typeof handler>[0];

const dynamo = mockClient(DynamoDBDocumentClient);
const logLines = capturedLogLines();

beforeEach(() => {
  dynamo.reset();
  dynamo.on(PutCommand).resolves({});
});

/** The suppression items put in the limit table. */
const suppressionPuts = () =>
  dynamo.commandCalls(PutCommand, { TableName: 'limits-test' }).map((call) => call.args[0].input);
/** SHA-256 of `suppressed:` and the delivery key, as hex: the key the mailer looks the mailbox up by. */
const suppressedHash = (deliveryKey: string) =>
  createHash('sha256').update(`suppressed:${deliveryKey}`).digest('hex');

const event = (detailType: string, detail: Record<string, unknown>): MailEvent => ({
  version: '0',
  id: 'event-1',
  'detail-type': detailType,
  source: 'aws.ses',
  account: '123456789012',
  time: '2026-11-24T10:00:00Z',
  region: 'eu-west-1',
  resources: [],
  detail: {
    mail: { messageId: 'ses-1', destination: ['Ann+X@Bücher.de'] },
    ...detail,
  } as MailEvent['detail'],
});
const bounce = (bounceType: string) =>
  event('Email Bounced', {
    eventType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: 'Ann+X@xn--bcher-kva.de' }],
    },
  });
const complaint = event('Email Complaint Received', {
  eventType: 'Complaint',
  complaint: { complainedRecipients: [{ emailAddress: 'Ann+X@xn--bcher-kva.de' }] },
});
const lines = () => logLines.map((line) => JSON.parse(line));

describe('the mail-events function: the mailbox', () => {
  it.each([
    ['a permanent bounce', () => bounce('Permanent'), 'bounce'],
    ['a complaint', () => complaint, 'complaint'],
  ])(
    'suppresses the mailbox after %s, by its delivery key’s hash, with the reason and time, no address and no expiry',
    async (_what, mailEvent, reason) => {
      dynamo.on(UpdateCommand).resolves({});

      await handler(mailEvent());

      expect(suppressionPuts()).toEqual([
        {
          TableName: 'limits-test',
          // Ann+X@bücher.de: the plus tag dropped, so every spelling of that mailbox finds it.
          Item: {
            deliveryKeyHash: suppressedHash('ann@xn--bcher-kva.de'),
            mailSuppressed: reason,
            mailSuppressedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
          ConditionExpression: expect.stringContaining('attribute_not_exists(#key)'),
          ExpressionAttributeNames: { '#key': 'deliveryKeyHash' },
          ...(reason === 'complaint' ? { ExpressionAttributeValues: { ':complaint': 'complaint' } } : {}),
        },
      ]);
      expect(JSON.stringify(suppressionPuts())).not.toMatch(/ann|bcher|expiresAt/i);
      expect(lines()).toEqual([expect.objectContaining({ suppressed: 1, marked: 1 })]);
    },
  );

  it('lets a complaint replace a bounce, but keeps a complaint from being replaced by a bounce', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(complaint);
    await handler(bounce('Permanent'));

    expect(suppressionPuts().map((put) => put.ConditionExpression)).toEqual([
      'attribute_not_exists(#key) OR mailSuppressed <> :complaint',
      'attribute_not_exists(#key)',
    ]);
  });

  it('suppresses the mailbox even when no record holds that spelling any more (it left, or was forgotten)', async () => {
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'gone', $metadata: {} }));

    await handler(bounce('Permanent'));

    expect(suppressionPuts()).toHaveLength(1);
    expect(lines()).toEqual([expect.objectContaining({ suppressed: 1, marked: 0 })]);
  });

  it('counts a mailbox suppressed already as no new suppression, and still marks the record', async () => {
    dynamo.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'there', $metadata: {} }));
    dynamo.on(UpdateCommand).resolves({});

    await handler(bounce('Permanent'));

    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(lines()).toEqual([expect.objectContaining({ suppressed: 0, marked: 1 })]);
  });

  it('throws when the suppression cannot be written, so EventBridge tries again', async () => {
    dynamo.on(PutCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    await expect(handler(complaint)).rejects.toThrow('busy');
  });
});

describe('the mail-events function: the record', () => {
  it('marks a permanent bounce on the record of the mailbox, found by its canonical key', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(bounce('Permanent'));

    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({
        Key: { email: 'ann+x@xn--bcher-kva.de' },
        UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :at',
        ConditionExpression: 'attribute_exists(email) AND attribute_not_exists(mailSuppressed)',
        ExpressionAttributeValues: expect.objectContaining({ ':reason': 'bounce' }),
      }),
    ]);
    expect(lines()).toEqual([
      expect.objectContaining({ kind: 'bounce', marked: 1, Bounced: 1, level: 'WARN' }),
    ]);
  });

  it('finds the record of an address the mailer had to quote (a local part that is not a dot-atom)', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(
      event('Email Bounced', {
        eventType: 'Bounce',
        bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: '"a..b"@example.nl' }] },
      }),
    );

    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input.Key).toEqual({ email: 'a..b@example.nl' });
  });

  it('marks a complaint, over a bounce but not twice', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(complaint);

    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      ConditionExpression:
        'attribute_exists(email) AND (attribute_not_exists(mailSuppressed) OR mailSuppressed <> :reason)',
      ExpressionAttributeValues: { ':reason': 'complaint' },
    });
    expect(lines()).toEqual([expect.objectContaining({ kind: 'complaint', Complained: 1 })]);
  });

  it('counts a transient or undetermined bounce, a reject and a delay, and silences no mailbox and marks no record for them', async () => {
    // SES: Undetermined is a bounce it could not classify, not a mailbox that is gone for good.
    await handler(bounce('Transient'));
    await handler(bounce('Undetermined'));
    await handler(event('Email Rejected', { eventType: 'Reject', reject: { reason: 'Bad content' } }));
    await handler(event('Email Delivery Delayed', { eventType: 'DeliveryDelay' }));

    expect(suppressionPuts()).toEqual([]);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(lines()).toEqual([
      expect.objectContaining({ kind: 'transient_bounce', Bounced: 1 }),
      expect.objectContaining({ kind: 'transient_bounce', Bounced: 1 }),
      expect.objectContaining({ kind: 'reject', Rejected: 1 }),
      expect.objectContaining({ kind: 'delivery_delay', DeliveryDelayed: 1 }),
    ]);
  });

  it('has nothing to mark for a mailbox that is not on the list, and says so without failing', async () => {
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'gone', $metadata: {} }));

    await handler(bounce('Permanent'));

    expect(lines()).toEqual([expect.objectContaining({ kind: 'bounce', marked: 0 })]);
  });

  it('throws a store failure, so EventBridge tries again, and logs it without the address', async () => {
    dynamo.on(UpdateCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    await expect(handler(complaint)).rejects.toThrow('busy');

    expect(lines()).toEqual([
      expect.objectContaining({ level: 'ERROR', errorName: 'ThrottlingException', FaultClass: 'throttled' }),
    ]);
    expect(logLines.join('\n')).not.toMatch(/ann|bcher/i);
  });
});
