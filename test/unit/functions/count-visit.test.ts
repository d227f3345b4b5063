/**
 * The day's salt of the visit count (functions/visit/count-visit.ts), against a mocked DynamoDB: the race
 * for it a real store seldom shows. Counting once per visitor is the integration tier's (visit-counting).
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  PutCommand,
  type PutCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { countVisit } from '../../../functions/visit/count-visit';

type Visit = Parameters<typeof countVisit>[2];

const dynamo = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  dynamo.reset();
});

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const store = { client, tableName: 'waitlist' };
const NOW = new Date('2026-11-26T15:04:05.000Z');
const END_OF_DAY = Date.parse('2026-11-27T00:00:00.000Z') / 1000;
const visit: Visit = {
  clientAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/141.0',
  site: 'abc.execute-api.eu-west-1.amazonaws.com',
  language: 'nl',
};
const hashOf = (salt: string, { clientAddress, userAgent, site }: Visit) =>
  createHash('sha256').update([salt, clientAddress, userAgent, site].join('\0')).digest('hex');

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });
const putsTo = (tableName: string) =>
  dynamo
    .commandCalls(PutCommand)
    .map((call) => call.args[0].input as PutCommandInput)
    .filter((input) => input.TableName === tableName);
const markers = () => putsTo('visitors').filter((input) => input.Item?.id !== 'salt');
const saltPuts = () => putsTo('visitors').filter((input) => input.Item?.id === 'salt');

function storedSalt(item: Record<string, unknown> | undefined) {
  dynamo.on(GetCommand, { TableName: 'visitors', Key: { id: 'salt' } }).resolves({ Item: item });
}

describe('the day’s salt', () => {
  it('makes the day’s first salt at random, in place of an earlier day’s, never over this day’s, and uses it', async () => {
    storedSalt({ id: 'salt', day: '2026-11-25', salt: 'yesterdays-salt' });

    await countVisit(store, 'visitors', visit, { now: NOW });

    const [put] = saltPuts();
    expect(put?.Item).toMatchObject({ id: 'salt', day: '2026-11-26', expiresAt: END_OF_DAY });
    const salt = String(put?.Item?.salt);
    expect(Buffer.from(salt, 'base64')).toHaveLength(32);
    expect(markers()[0]?.Item?.id).toBe(`nl:${hashOf(salt, visit)}`);
    expect(markers()[0]?.Item?.id).not.toBe(`nl:${hashOf('yesterdays-salt', visit)}`);
  });

  it('uses the salt another request put first, read consistently, when its own put finds this day’s there', async () => {
    dynamo
      .on(GetCommand, { TableName: 'visitors', Key: { id: 'salt' } })
      .resolvesOnce({ Item: { id: 'salt', day: '2026-11-25', salt: 'yesterdays-salt' } })
      .resolves({ Item: { id: 'salt', day: '2026-11-26', salt: 'made-elsewhere' } });
    dynamo.on(PutCommand, { Item: { id: 'salt' } }).rejects(conditionFailed());

    expect(await countVisit(store, 'visitors', visit, { now: NOW })).toBe('counted');

    const reads = dynamo.commandCalls(GetCommand).map((call) => call.args[0].input as GetCommandInput);
    expect(reads.map((read) => read.ConsistentRead)).toEqual([false, true]);
    expect(markers()[0]?.Item?.id).toBe(`nl:${hashOf('made-elsewhere', visit)}`);
  });
});
