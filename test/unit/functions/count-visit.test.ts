/**
 * Counting a visitor once per UTC day and language (functions/visit/count-visit.ts), against a mocked
 * DynamoDB: which salt is used, what a marker holds, and when the day's count goes up.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  PutCommand,
  type PutCommandInput,
  UpdateCommand,
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

describe('counting a visitor', () => {
  it('counts a visitor’s first home page of the day once: a marker of their hash, and one more for the day’s language', async () => {
    storedSalt({ id: 'salt', day: '2026-11-26', salt: 'salt-of-the-day', expiresAt: END_OF_DAY });

    expect(await countVisit(store, 'visitors', visit, { now: NOW })).toBe('counted');

    expect(saltPuts()).toEqual([]);
    expect(markers()).toEqual([
      {
        TableName: 'visitors',
        Item: { id: `nl:${hashOf('salt-of-the-day', visit)}`, expiresAt: END_OF_DAY },
        ConditionExpression: 'attribute_not_exists(#key)',
        ExpressionAttributeNames: { '#key': 'id' },
      },
    ]);
    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 'waitlist',
        Key: { email: '#visits#2026-11-26' },
        UpdateExpression: 'ADD #language :one',
        ExpressionAttributeNames: { '#language': 'nl' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    ]);
  });

  it('does not count a visitor again that day: their marker is there, and the count stays', async () => {
    storedSalt({ id: 'salt', day: '2026-11-26', salt: 'salt-of-the-day' });
    dynamo.on(PutCommand).rejects(conditionFailed());

    expect(await countVisit(store, 'visitors', visit, { now: NOW })).toBe('seen');

    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
  });

  it('tells visitors apart by address, by user agent, and counts one visitor again in the other language', async () => {
    storedSalt({ id: 'salt', day: '2026-11-26', salt: 'salt-of-the-day' });

    for (const other of [
      visit,
      { ...visit, clientAddress: '203.0.113.8' },
      { ...visit, userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1' },
      { ...visit, language: 'en' as const },
    ])
      await countVisit(store, 'visitors', other, { now: NOW });

    const keys = markers().map((input) => String(input.Item?.id));
    expect(new Set(keys).size).toBe(4);
    expect(keys[3]).toBe(`en:${keys[0]?.slice(3)}`);
  });

  it('keeps neither the address nor the user agent: the marker is a hash, and the count has none', async () => {
    storedSalt({ id: 'salt', day: '2026-11-26', salt: 'salt-of-the-day' });

    await countVisit(store, 'visitors', visit, { now: NOW });

    const written = JSON.stringify(dynamo.calls().map((call) => call.args[0].input));
    for (const kept of [visit.clientAddress, visit.userAgent, 'Firefox', visit.site])
      expect(written).not.toContain(kept);
  });
});

describe('the day’s salt', () => {
  it('makes the day’s first salt at random, in place of an earlier day’s, never over this day’s, and uses it', async () => {
    storedSalt({ id: 'salt', day: '2026-11-25', salt: 'yesterdays-salt' });

    await countVisit(store, 'visitors', visit, { now: NOW });

    const [put] = saltPuts();
    expect(put).toMatchObject({
      TableName: 'visitors',
      Item: { id: 'salt', day: '2026-11-26', expiresAt: END_OF_DAY },
      ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
      ExpressionAttributeNames: { '#day': 'day' },
      ExpressionAttributeValues: { ':day': '2026-11-26' },
    });
    const salt = String(put?.Item?.salt);
    expect(Buffer.from(salt, 'base64')).toHaveLength(32);
    expect(markers()[0]?.Item?.id).toBe(`nl:${hashOf(salt, visit)}`);
    expect(markers()[0]?.Item?.id).not.toBe(`nl:${hashOf('yesterdays-salt', visit)}`);
  });

  it('makes one when there is none (the table deleted yesterday’s), and a new one each day', async () => {
    storedSalt(undefined);
    await countVisit(store, 'visitors', visit, { now: NOW });
    await countVisit(store, 'visitors', visit, { now: new Date('2026-11-27T00:00:01.000Z') });

    const [today, tomorrow] = saltPuts().map((put) => put.Item);
    expect(today?.day).toBe('2026-11-26');
    expect(tomorrow?.day).toBe('2026-11-27');
    expect(tomorrow?.expiresAt).toBe(END_OF_DAY + 86_400);
    expect(tomorrow?.salt).not.toBe(today?.salt);
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

  it('passes a store fault on, counting nothing: the route answers it as one', async () => {
    const throttled = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
    });
    dynamo.on(GetCommand).rejects(throttled);

    await expect(countVisit(store, 'visitors', visit, { now: NOW })).rejects.toThrow('slow down');
    expect(dynamo.commandCalls(PutCommand)).toEqual([]);
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
  });
});
