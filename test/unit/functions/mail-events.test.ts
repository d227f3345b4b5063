/**
 * SES's events for sent mail, as EventBridge delivers them, the table mocked: a permanent bounce or a
 * complaint marks the mailbox's record so nothing more is sent to it; every kind is counted, no address logged.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { capturedLogLines } from './captured-log';

vi.stubEnv('TABLE_NAME', 'waitlist-test');
const { handler } = await import('../../../functions/mail-events/handler');
type MailEvent = Parameters<typeof handler>[0];

const dynamo = mockClient(DynamoDBDocumentClient);
const logLines = capturedLogLines();

beforeEach(() => {
  dynamo.reset();
});

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

describe('the mail-events function', () => {
  it('marks a permanent bounce on the record of the mailbox, found by its canonical key', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(bounce('Permanent'));

    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({
        Key: { email: 'ann+x@xn--bcher-kva.de' },
        UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :now',
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

  it('counts a transient bounce, a reject and a delay, and marks nobody for them', async () => {
    await handler(bounce('Transient'));
    await handler(event('Email Rejected', { eventType: 'Reject', reject: { reason: 'Bad content' } }));
    await handler(event('Email Delivery Delayed', { eventType: 'DeliveryDelay' }));

    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(lines()).toEqual([
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
