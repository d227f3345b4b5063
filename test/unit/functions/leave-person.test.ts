/**
 * leavePerson against a mocked table: a token that belongs to a record removes every record of that
 * record's mailbox, its own last, and counts the person once; every other token removes nothing and says
 * only "unknown".
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { LEFT_COUNTER_KEY, MAILBOX_INDEX, TOKEN_INDEX } from '#contract/waitlist-table';
import { hashOfLinkId, newLinkId } from '../../../functions/confirm/confirmation-token';
import { leavePerson } from '../../../functions/leave/leave-person';
import { leaveToken, newLeaveKey } from '../../../functions/leave/leave-token';
import { mailboxHashOf } from '../../../functions/store/mailbox';

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
  email: 'ann.de.vries+news@gmail.com',
  tokenHash: hashOfLinkId(linkId),
  leaveKey,
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: nowSeconds + 3600,
};
/** Other spellings of Ann's mailbox, each a record of its own. */
const OTHER_SPELLINGS = ['anndevries@gmail.com', 'ann.devries@googlemail.com'];
const MAILBOX = mailboxHashOf(record.email);

const ANY_TOKEN_INDEX_QUERY = { IndexName: TOKEN_INDEX.name };
const ANY_MAILBOX_INDEX_QUERY = { IndexName: MAILBOX_INDEX.name };
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });

/** The token's record is there, with its link and leave key; the mailbox index holds `spellings` too. */
function onTheList({
  spellings = OTHER_SPELLINGS,
  stored = record,
}: {
  spellings?: string[];
  stored?: typeof record & { mailSuppressed?: string };
} = {}): void {
  dynamo.on(QueryCommand, ANY_TOKEN_INDEX_QUERY).resolves({ Items: [{ email: record.email }] });
  dynamo.on(GetCommand).resolves({ Item: stored });
  dynamo
    .on(QueryCommand, ANY_MAILBOX_INDEX_QUERY)
    .resolves({ Items: [...spellings, record.email].map((email) => ({ email })) });
  dynamo.on(DeleteCommand).callsFake((input: { Key: { email: string } }) => ({
    Attributes: { ...record, email: input.Key.email },
  }));
  dynamo.on(UpdateCommand).resolves({});
}
const deletedKeys = () => dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key?.email);
/** How many people the counter of those who left was raised by. */
const counted = () =>
  dynamo
    .commandCalls(UpdateCommand, { Key: { email: LEFT_COUNTER_KEY } })
    .reduce((sum, call) => sum + Number(call.args[0].input.ExpressionAttributeValues?.[':one']), 0);

beforeEach(() => {
  dynamo.reset();
});

describe('leaving with a token', () => {
  it('finds the record by the link’s hash, checks it carries this link and leave key, and reads it consistently', async () => {
    onTheList();

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');

    expect(dynamo.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      TableName: 'waitlist-test',
      IndexName: TOKEN_INDEX.name,
      KeyConditionExpression: '#link = :link',
      ExpressionAttributeNames: { '#link': TOKEN_INDEX.key.name },
      ExpressionAttributeValues: { ':link': hashOfLinkId(linkId) },
    });
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({
      Key: { email: record.email },
      ConsistentRead: true,
    });
  });

  it('removes every other record of the mailbox the link’s record delivers to, then that record, and counts one person who left', async () => {
    onTheList();

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');

    expect(dynamo.commandCalls(QueryCommand)[1]?.args[0].input).toMatchObject({
      IndexName: MAILBOX_INDEX.name,
      KeyConditionExpression: '#mailbox = :mailbox',
      ExpressionAttributeNames: { '#mailbox': MAILBOX_INDEX.key.name },
      ExpressionAttributeValues: { ':mailbox': MAILBOX },
    });
    // Its own record last: a leave cut short can be pressed again with the same link.
    expect(deletedKeys()).toEqual([...OTHER_SPELLINGS, record.email]);
    for (const call of dynamo.commandCalls(DeleteCommand).slice(0, -1))
      expect(call.args[0].input).toMatchObject({
        ConditionExpression: '#mailbox = :mailbox AND attribute_not_exists(mailSuppressed)',
        ExpressionAttributeValues: { ':mailbox': MAILBOX },
      });
    expect(dynamo.commandCalls(DeleteCommand).at(-1)?.args[0].input).toMatchObject({
      Key: { email: record.email },
      ConditionExpression: '#link = :link AND leaveKey = :leaveKey AND attribute_not_exists(mailSuppressed)',
      ExpressionAttributeValues: { ':link': hashOfLinkId(linkId), ':leaveKey': leaveKey },
    });
    expect(counted()).toBe(1);
  });

  it('counts no one who left when the record is SES’s mailbox simulator’s (the live smoke check)', async () => {
    onTheList({ spellings: [] });
    dynamo
      .on(QueryCommand, ANY_TOKEN_INDEX_QUERY)
      .resolves({ Items: [{ email: 'success@simulator.amazonses.com' }] });

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
  });

  it('removes the link’s own record alone when its mailbox has no other', async () => {
    onTheList({ spellings: [] });

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(deletedKeys()).toEqual([record.email]);
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

  it('touches nothing of the mailbox when the record has another leave key or link, or went meanwhile', async () => {
    for (const stored of [
      { ...record, leaveKey: newLeaveKey() },
      { ...record, tokenHash: hashOfLinkId(newLinkId()) },
    ]) {
      dynamo.reset();
      onTheList({ stored });

      expect(await leavePerson(store, token, { now: NOW })).toBe('unknown');
      expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
      expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
    }
    dynamo.reset();
    onTheList();
    dynamo.on(GetCommand).resolves({});

    expect(await leavePerson(store, token, { now: NOW })).toBe('unknown');
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('says "unknown" and counts nothing when neither the record nor any other of its mailbox may go (used, or do-not-mail)', async () => {
    onTheList();
    dynamo.on(DeleteCommand).rejects(conditionFailed());

    expect(await leavePerson(store, token, { now: NOW })).toBe('unknown');
    expect(counted()).toBe(0);
  });

  it('keeps a record marked do-not-mail, and still removes the other spellings of its mailbox', async () => {
    onTheList({ stored: { ...record, mailSuppressed: 'bounce' } });
    dynamo.on(DeleteCommand, { Key: { email: record.email } }).rejects(conditionFailed());

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(deletedKeys()).toEqual([...OTHER_SPELLINGS, record.email]);
    // Its person is off the list already, counted as bounced.
    expect(counted()).toBe(0);
  });

  it('deletes records past their expiry that the table has not removed yet, without counting anyone who left', async () => {
    onTheList();
    dynamo.on(DeleteCommand).callsFake((input: { Key: { email: string } }) => ({
      Attributes: { ...record, email: input.Key.email, expiresAt: nowSeconds - 1 },
    }));

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(3);
    expect(counted()).toBe(0);
  });

  it('counts a person whose record expires this very second: it is not past its expiry yet', async () => {
    onTheList();
    dynamo.on(DeleteCommand).callsFake((input: { Key: { email: string } }) => ({
      Attributes: { ...record, email: input.Key.email, expiresAt: nowSeconds },
    }));

    expect(await leavePerson(store, token, { now: NOW })).toBe('left');
    expect(counted()).toBe(1);
  });

  it('throws what the store throws, other than a failed condition', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    onTheList();
    dynamo
      .on(QueryCommand, ANY_MAILBOX_INDEX_QUERY)
      .rejectsOnce(throttled)
      .resolves({ Items: [{ email: record.email }] });
    dynamo.on(UpdateCommand).rejects(throttled);

    await expect(leavePerson(store, token, { now: NOW })).rejects.toThrow('slow down');
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
    await expect(leavePerson(store, token, { now: NOW })).rejects.toThrow('slow down');
  });
});

describe('counting who left', () => {
  type Stored = typeof record;
  /**
   * The table in memory, as far as a leave uses it: a delete removes a record that is there (and answers
   * with it), or fails its condition; the leave mark is written unless one as new as the newest record
   * the leave removed is there.
   */
  function tableHolding(records: Stored[]) {
    const table = new Map(records.map((stored) => [stored.email, stored]));
    const marks = new Map<string, string>();
    const deletes: string[] = [];
    let count = 0;
    dynamo.on(QueryCommand, ANY_TOKEN_INDEX_QUERY).callsFake((input) => ({
      Items: [...table.values()].filter(
        (stored) => stored.tokenHash === input.ExpressionAttributeValues[':link'],
      ),
    }));
    dynamo.on(GetCommand).callsFake((input) => ({ Item: table.get(input.Key.email) }));
    dynamo
      .on(QueryCommand, ANY_MAILBOX_INDEX_QUERY)
      .callsFake(() => ({ Items: [...table.keys()].map((email) => ({ email })) }));
    dynamo.on(DeleteCommand).callsFake((input) => {
      const stored = table.get(input.Key.email);
      deletes.push(`${input.Key.email} ${stored ? 'removed' : 'gone'}`);
      if (!stored) throw conditionFailed();
      table.delete(input.Key.email);
      return { Attributes: stored };
    });
    dynamo.on(UpdateCommand).callsFake((input) => {
      const { email } = input.Key;
      const values = input.ExpressionAttributeValues;
      if (email === LEFT_COUNTER_KEY) count += values[':one'];
      else if ((marks.get(email) ?? '') >= values[':newest']) throw conditionFailed();
      else marks.set(email, values[':now']);
      return {};
    });
    return { deletes, left: () => count, add: (stored: Stored) => table.set(stored.email, stored) };
  }
  /** A record of Ann's mailbox under another spelling, with a leave link of its own. */
  function spelling(email: string, createdAt = record.createdAt) {
    const ownLinkId = newLinkId();
    const ownLeaveKey = newLeaveKey();
    const stored = { ...record, email, createdAt, tokenHash: hashOfLinkId(ownLinkId), leaveKey: ownLeaveKey };
    return { stored, token: leaveToken(ownLinkId, ownLeaveKey) };
  }

  it('counts the person once when the links of two spellings are pressed at the same moment, each removing the other’s record first', async () => {
    const [first, second] = OTHER_SPELLINGS.map((email) => spelling(email));
    const table = tableHolding([first?.stored, second?.stored] as Stored[]);

    const answers = await Promise.all(
      [first, second].map((each) => leavePerson(store, each?.token ?? '', { now: NOW })),
    );

    expect(answers).toEqual(['left', 'left']);
    // Each removed the other's record and found its own gone.
    expect(table.deletes).toEqual([
      `${second?.stored.email} removed`,
      `${first?.stored.email} removed`,
      `${first?.stored.email} gone`,
      `${second?.stored.email} gone`,
    ]);
    expect(table.left()).toBe(1);
  });

  it('counts a person again who joined again after leaving, and left again', async () => {
    const first = spelling(record.email);
    const table = tableHolding([first.stored]);
    await leavePerson(store, first.token, { now: NOW });
    const later = new Date(NOW.getTime() + 60_000);
    const again = spelling(record.email, later.toISOString());
    table.add(again.stored);

    await leavePerson(store, again.token, { now: new Date(later.getTime() + 60_000) });

    expect(table.left()).toBe(2);
  });
});
