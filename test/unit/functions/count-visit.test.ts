// The day's salt against a mocked DynamoDB: the race for it a real store seldom shows. Counting once per
// visitor is the integration tier's (visit-counting).
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as ddb from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { countVisit } from '../../../functions/visit/count-visit';

type Visit = Parameters<typeof countVisit>[2];

const dynamo = mockClient(ddb.DynamoDBDocumentClient);
beforeEach(() => {
  dynamo.reset();
});

const client = ddb.DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const store = { client, tableName: 'waitlist' };
const NOW = new Date('2026-11-26T15:04:05.000Z');
const visit: Visit = {
  clientAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/141.0',
  site: 'abc.execute-api.eu-west-1.amazonaws.com',
  language: 'nl',
};
const hashOf = (salt: string, { clientAddress, userAgent, site }: Visit) =>
  createHash('sha256').update([salt, clientAddress, userAgent, site].join('\0')).digest('hex');

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });
const markers = () =>
  dynamo
    .commandCalls(ddb.PutCommand)
    .map((call) => call.args[0].input as ddb.PutCommandInput)
    .filter((input) => input.TableName === 'visitors' && input.Item?.id !== 'salt');

describe('the day’s salt', () => {
  it('uses the salt another request put first, read consistently, when its own put finds this day’s there', async () => {
    dynamo
      .on(ddb.GetCommand, { TableName: 'visitors', Key: { id: 'salt' } })
      .resolvesOnce({ Item: { id: 'salt', day: '2026-11-25', salt: 'yesterdays-salt' } })
      .resolves({ Item: { id: 'salt', day: '2026-11-26', salt: 'made-elsewhere' } });
    dynamo.on(ddb.PutCommand, { Item: { id: 'salt' } }).rejects(conditionFailed());

    expect(await countVisit(store, 'visitors', visit, { now: NOW })).toBe('counted');

    const reads = dynamo
      .commandCalls(ddb.GetCommand)
      .map((call) => call.args[0].input as ddb.GetCommandInput);
    expect(reads.map((read) => read.ConsistentRead)).toEqual([false, true]);
    expect(markers()[0]?.Item?.id).toBe(`nl:${hashOf('made-elsewhere', visit)}`);
  });
});
