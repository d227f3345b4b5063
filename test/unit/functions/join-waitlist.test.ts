/**
 * A signup and a second signup of the same mailbox, against the table mocked: what is put, and when a
 * pending address asks for its confirmation mail again.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import {
  MAIL_RESEND_INTERVAL_MINUTES,
  MAX_CONFIRMATION_MAILS,
  PENDING_DAYS,
  RETENTION_DAYS,
} from '#contract/waitlist-table';
import { joinWaitlist } from '../../../functions/waitlist/join-waitlist';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = {
  client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
  tableName: 'waitlist-test',
};
const NOW = new Date('2026-11-22T12:00:00.000Z');
const ENTRY = { email: 'Ann@Example.nl', key: 'ann@example.nl', language: 'en' as const };
const nowSeconds = Math.floor(NOW.getTime() / 1000);
const exists = () => new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });

beforeEach(() => {
  dynamo.reset();
});

describe('joining with confirmation by mail', () => {
  it('stores a new address pending, kept PENDING_DAYS, with one confirmation mail asked for', async () => {
    dynamo.on(PutCommand).resolves({});

    expect(await joinWaitlist(store, ENTRY, { confirmSignups: true, now: NOW })).toBe('joined');
    expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item).toEqual({
      email: 'ann@example.nl',
      emailAsEntered: 'Ann@Example.nl',
      language: 'en',
      createdAt: NOW.toISOString(),
      consentVersion: SIGNUP_NOTE_VERSION,
      status: 'pending',
      expiresAt: nowSeconds + PENDING_DAYS * 86_400,
      mailRequestId: expect.any(String),
      mailRequestedAt: NOW.toISOString(),
      mailsRequested: 1,
    });
  });

  it('puts over nothing but a pending record past its time (the time to live has yet to delete it) that never bounced or complained', async () => {
    dynamo.on(PutCommand).resolves({});

    await joinWaitlist(store, ENTRY, { confirmSignups: true, now: NOW });
    expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input).toMatchObject({
      ConditionExpression:
        'attribute_not_exists(email) OR (#status = :pending AND expiresAt < :now AND attribute_not_exists(mailSuppressed))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':now': nowSeconds },
    });
  });

  it('answers a second signup "already registered" and asks for the mail again, within the limits, in the first signup\'s language', async () => {
    dynamo.on(PutCommand).rejects(exists());
    dynamo.on(UpdateCommand).resolves({});

    expect(await joinWaitlist(store, { ...ENTRY, language: 'nl' }, { confirmSignups: true, now: NOW })).toBe(
      'already_registered',
    );
    const update = dynamo.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(update).toMatchObject({
      Key: { email: 'ann@example.nl' },
      ConditionExpression:
        '#status = :pending AND mailRequestedAt <= :cutoff AND mailsRequested < :max AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeValues: {
        ':pending': 'pending',
        ':cutoff': new Date(NOW.getTime() - MAIL_RESEND_INTERVAL_MINUTES * 60_000).toISOString(),
        ':max': MAX_CONFIRMATION_MAILS,
        ':expiresAt': nowSeconds + PENDING_DAYS * 86_400,
        ':one': 1,
      },
    });
    expect(update?.UpdateExpression).toContain('mailsRequested = mailsRequested + :one');
    expect(JSON.stringify(update)).not.toMatch(/language|"nl"/);
    expect(update?.ExpressionAttributeValues?.[':id']).not.toBe(
      dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item?.mailRequestId,
    );
  });

  it('answers "already registered" when no mail may be sent again (confirmed, too soon, too often)', async () => {
    dynamo.on(PutCommand).rejects(exists());
    dynamo.on(UpdateCommand).rejects(exists());

    expect(await joinWaitlist(store, ENTRY, { confirmSignups: true, now: NOW })).toBe('already_registered');
  });

  it('lets a store failure while asking again be thrown, so the visitor hears "try again"', async () => {
    dynamo.on(PutCommand).rejects(exists());
    dynamo.on(UpdateCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));

    await expect(joinWaitlist(store, ENTRY, { confirmSignups: true, now: NOW })).rejects.toThrow('throttled');
  });
});

describe('joining with confirmation off', () => {
  it('stores a new address confirmed at once, kept RETENTION_DAYS, and asks for no mail', async () => {
    dynamo.on(PutCommand).resolves({});

    await joinWaitlist(store, ENTRY, { confirmSignups: false, now: NOW });
    expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item).toEqual({
      email: 'ann@example.nl',
      emailAsEntered: 'Ann@Example.nl',
      language: 'en',
      createdAt: NOW.toISOString(),
      consentVersion: SIGNUP_NOTE_VERSION,
      status: 'confirmed',
      confirmedAt: NOW.toISOString(),
      confirmedConsentVersion: SIGNUP_NOTE_VERSION,
      expiresAt: nowSeconds + RETENTION_DAYS * 86_400,
    });
  });

  it('sends nothing more for a second signup', async () => {
    dynamo.on(PutCommand).rejects(exists());

    expect(await joinWaitlist(store, ENTRY, { confirmSignups: false, now: NOW })).toBe('already_registered');
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
