/**
 * leavePerson against a mocked table: a token that belongs to a record deletes it and counts it; every
 * other token removes nothing and says only "unknown".
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { LEFT_COUNTER_KEY, TOKEN_INDEX } from '#contract/waitlist-table';
import { hashOfLinkId, newLinkId } from '../../../functions/confirm/confirmation-token';
import { leavePerson } from '../../../functions/leave/leave-person';
import { leaveToken, newLeaveKey } from '../../../functions/leave/leave-token';

const dynamo = mockClient(DynamoDBDocumentClient);
const store = {
  client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
  tableName: 'waitlist-test',
};
const NOW = new Date('2026-11-24T10:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;

const linkId = newLinkId();
const leaveKey = newLeaveKey();
const token = leaveToken(linkId, leaveKey);
const record = {
  email: 'ann@example.nl',
  tokenHash: hashOfLinkId(linkId),
  leaveKey,
  expiresAt: nowSeconds + 3600,
};

beforeEach(() => {
  dynamo.reset();
});

describe('leaving with a token', () => {
  it('finds the record by the link’s hash, deletes it if it carries this leave key, and counts one more who left', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ email: record.email }] });
    dynamo.on(DeleteCommand).resolves({ Attributes: record });
    dynamo.on(UpdateCommand).resolves({});

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');

    expect(dynamo.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      TableName: 'waitlist-test',
      IndexName: TOKEN_INDEX.name,
      KeyConditionExpression: '#link = :link',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':link': hashOfLinkId(linkId) },
    });
    expect(dynamo.commandCalls(DeleteCommand)[0]?.args[0].input).toMatchObject({
      Key: { email: record.email },
      ConditionExpression: '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeValues: { ':link': hashOfLinkId(linkId), ':leaveKey': leaveKey },
    });
    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: 'waitlist-test',
      Key: { email: LEFT_COUNTER_KEY },
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1 },
    });
  });

  it('says "unknown" without asking the store for a token that is not one this site makes', async () => {
    for (const forged of ['', 'abc', `${token}x`, token.replace(/^./, '!')])
      expect(await leavePerson(store, forged, { now: NOW })).toBe('unknown');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('says "unknown" and deletes nothing when no record has the link', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });

    expect(await leavePerson(store, token, { now: NOW })).toBe('unknown');
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('says "unknown" and counts nothing when the record has another leave key, is marked do-not-mail, or went meanwhile', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ email: record.email }] });
    dynamo.on(DeleteCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));

    expect(await leavePerson(store, leaveToken(linkId, newLeaveKey()), { now: NOW })).toBe('unknown');
    expect(await leavePerson(store, token, { now: NOW })).toBe('unknown');
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('deletes a record past its expiry that the table has not removed yet, without counting it as someone who left', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ email: record.email }] });
    dynamo.on(DeleteCommand).resolves({ Attributes: { ...record, expiresAt: nowSeconds - 1 } });

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('throws what the store throws, other than a failed condition', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    dynamo
      .on(QueryCommand)
      .rejectsOnce(throttled)
      .resolves({ Items: [{ email: record.email }] });
    dynamo.on(DeleteCommand).resolves({ Attributes: record });
    dynamo.on(UpdateCommand).rejects(throttled);

    await expect(leavePerson(store, token, { now: NOW })).rejects.toThrow('slow down');
    await expect(leavePerson(store, token, { now: NOW })).rejects.toThrow('slow down');
  });
});
