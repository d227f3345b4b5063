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

// What the function reads of EventBridge's envelope: the detail.
const event = (detailType: string, detail: { eventType: string } & Record<string, unknown>) =>
  ({ 'detail-type': detailType, source: 'aws.ses', detail }) as unknown as MailEvent;
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

const updates = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });

describe('a permanent bounce or a complaint', () => {
  it.each([
    ['a permanent bounce', () => bounce('Permanent'), 'bounce', 'Bounced'],
    ['a complaint', () => complaint, 'complaint', 'Complained'],
  ])(
    'after %s suppresses the mailbox by its delivery key’s hash, no address and no expiry, and marks the record of its canonical key',
    async (_what, mailEvent, reason, metric) => {
      dynamo.on(UpdateCommand).resolves({});

      await handler(mailEvent());

      // Ann+X@bücher.de: the plus tag dropped, so every spelling of that mailbox finds it.
      expect(suppressionPuts().map((put) => put.Item)).toEqual([
        {
          deliveryKeyHash: suppressedHash('ann@xn--bcher-kva.de'),
          mailSuppressed: reason,
          mailSuppressedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]);
      expect(JSON.stringify(suppressionPuts())).not.toMatch(/ann|bcher|expiresAt/i);
      expect(updates()).toEqual([
        expect.objectContaining({
          Key: { email: 'ann+x@xn--bcher-kva.de' },
          ExpressionAttributeValues: expect.objectContaining({ ':reason': reason }),
        }),
      ]);
      expect(lines()).toEqual([
        expect.objectContaining({ kind: reason, suppressed: 1, marked: 1, [metric]: 1, level: 'WARN' }),
      ]);
    },
  );

  it('lets a complaint replace a bounce, in the mailbox and the record, but never a bounce a complaint', async () => {
    dynamo.on(UpdateCommand).resolves({});

    await handler(complaint);
    await handler(bounce('Permanent'));

    expect(suppressionPuts().map((put) => put.ConditionExpression)).toEqual([
      'attribute_not_exists(#key) OR mailSuppressed <> :complaint',
      'attribute_not_exists(#key)',
    ]);
    expect(updates().map((update) => update.ConditionExpression)).toEqual([
      'attribute_exists(email) AND (attribute_not_exists(mailSuppressed) OR mailSuppressed <> :reason)',
      'attribute_exists(email) AND attribute_not_exists(mailSuppressed)',
    ]);
  });

  it('suppresses a mailbox no record holds any more, and counts one suppressed already as none new', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await handler(bounce('Permanent'));
    dynamo.on(PutCommand).rejects(conditionFailed());
    dynamo.on(UpdateCommand).resolves({});
    await handler(bounce('Permanent'));

    expect(lines()).toEqual([
      expect.objectContaining({ suppressed: 1, marked: 0 }),
      expect.objectContaining({ suppressed: 0, marked: 1 }),
    ]);
  });

  it('finds the record of an address the mailer had to quote (a local part that is not a dot-atom)', async () => {
    await handler(
      event('Email Bounced', {
        eventType: 'Bounce',
        bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: '"a..b"@example.nl' }] },
      }),
    );

    expect(updates()[0]?.Key).toEqual({ email: 'a..b@example.nl' });
  });

  it.each(['Put', 'Update'])(
    'throws when the %s fails, so EventBridge tries again, logging no address',
    async (which) => {
      const busy = Object.assign(new Error('busy'), { name: 'ThrottlingException' });
      if (which === 'Put') dynamo.on(PutCommand).rejects(busy);
      else dynamo.on(UpdateCommand).rejects(busy);

      await expect(handler(complaint)).rejects.toThrow('busy');

      expect(lines()).toEqual([
        expect.objectContaining({
          level: 'ERROR',
          errorName: 'ThrottlingException',
          FaultClass: 'throttled',
        }),
      ]);
      expect(logLines.join('\n')).not.toMatch(/ann|bcher/i);
    },
  );
});

describe('any other event', () => {
  it('counts a transient or undetermined bounce, a reject and a delay, silencing no mailbox and marking no record', async () => {
    // SES: Undetermined is a bounce it could not classify, not a mailbox that is gone for good.
    await handler(bounce('Transient'));
    await handler(bounce('Undetermined'));
    await handler(event('Email Rejected', { eventType: 'Reject', reject: { reason: 'Bad content' } }));
    await handler(event('Email Delivery Delayed', { eventType: 'DeliveryDelay' }));

    expect(suppressionPuts()).toEqual([]);
    expect(updates()).toHaveLength(0);
    expect(lines()).toEqual([
      expect.objectContaining({ kind: 'transient_bounce', Bounced: 1 }),
      expect.objectContaining({ kind: 'transient_bounce', Bounced: 1 }),
      expect.objectContaining({ kind: 'reject', Rejected: 1 }),
      expect.objectContaining({ kind: 'delivery_delay', DeliveryDelayed: 1 }),
    ]);
  });
});
