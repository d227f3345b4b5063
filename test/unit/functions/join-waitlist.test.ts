/**
 * joinWaitlist when the store fails, the table mocked: what it does with the records is pinned against a
 * real store in test/integration/join-core.test.ts.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { joinWaitlist } from '../../../functions/waitlist/join-waitlist';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = {
  client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
  tableName: 'waitlist-test',
};
const NOW = new Date('2026-11-22T12:00:00.000Z');
const ENTRY = { email: 'Ann@Example.nl', key: 'ann@example.nl', language: 'en' as const };
const exists = () => new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
const throttled = () => Object.assign(new Error('throttled'), { name: 'ThrottlingException' });

beforeEach(() => {
  dynamo.reset();
});

describe('joining while the store fails', () => {
  it('throws a failure of the signup itself, so the visitor hears "try again"', async () => {
    dynamo.on(PutCommand).rejects(throttled());

    await expect(joinWaitlist(store, ENTRY, { now: NOW })).rejects.toThrow('throttled');
  });

  it('throws a failure while asking for the mail again, rather than answer "already registered" with no mail asked for', async () => {
    dynamo.on(PutCommand).rejects(exists());
    dynamo.on(UpdateCommand).rejects(throttled());

    await expect(joinWaitlist(store, ENTRY, { now: NOW })).rejects.toThrow('throttled');
  });
});
