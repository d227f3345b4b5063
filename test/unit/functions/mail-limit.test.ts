/**
 * The per-mailbox mail limit (functions/mailer/mail-limit.ts), the limit table mocked: what only a mock can
 * stage. The budget, its sliding window and the race for its last place, against a real store:
 * test/integration/mail-core.test.ts.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MailLimitContended, mayMail } from '../../../functions/mailer/mail-limit';
import { mailboxHash } from '../../../functions/store/mailbox';

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const dynamo = mockClient(documentClient);
const limits = { client: documentClient, tableName: 'limits' };

const HOUR = 60 * 60 * 1000;
const NOW = new Date('2026-11-24T12:00:00.000Z');
const hoursBefore = (hours: number) => NOW.getTime() - hours * HOUR;
const KEY = { deliveryKeyHash: mailboxHash('limit', 'ann@gmail.com') };

/** The limit item the next reads find. */
const found = (sends: { requestId: string; sentAt: number }[], version = sends.length) =>
  dynamo.on(GetCommand).resolves({ Item: { ...KEY, sends, version } });
const writes = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });

beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
});

describe('the per-mailbox mail limit', () => {
  it('lets the first mail to a mailbox through, writing its hash and no address', async () => {
    expect(await mayMail(limits, 'a.nn+x@googlemail.com', 'r1', { now: NOW })).toBe(true);

    expect(writes()).toEqual([expect.objectContaining({ Key: KEY })]);
    expect(JSON.stringify(writes())).not.toMatch(/ann|gmail/);
  });

  it('lets every mail to the smoke check’s simulator address through, unrecorded, and holds its domain’s others to the limit', async () => {
    for (const requestId of ['r1', 'r2', 'r3', 'r4'])
      expect(await mayMail(limits, 'success@simulator.amazonses.com', requestId, { now: NOW })).toBe(true);
    expect(dynamo.calls()).toEqual([]);
    await mayMail(limits, 'success+1@simulator.amazonses.com', 'r1', { now: NOW });
    expect(dynamo.calls().length).toBeGreaterThan(0);
  });

  it('lets a retry of a request it let through go again, counted once, without writing', async () => {
    found([
      { requestId: 'r1', sentAt: hoursBefore(3) },
      { requestId: 'r2', sentAt: hoursBefore(2) },
      { requestId: 'r3', sentAt: hoursBefore(1) },
    ]);

    expect(await mayMail(limits, 'ann@gmail.com', 'r2', { now: NOW })).toBe(true);

    expect(writes()).toEqual([]);
  });

  it('reads again after losing a race for a place that is not the last, and takes the next', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({})
      .resolves({ Item: { ...KEY, sends: [{ requestId: 'other', sentAt: NOW.getTime() }], version: 1 } });
    dynamo.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});

    expect(await mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).toBe(true);
    expect(writes()).toHaveLength(2);
  });

  it('gives up, for the mail to be tried again later, when other senders keep winning', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());

    await expect(mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).rejects.toBeInstanceOf(
      MailLimitContended,
    );
  });

  it('throws a store failure rather than let a mail through or hold it back for good', async () => {
    dynamo.on(GetCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    await expect(mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).rejects.toThrow('busy');
  });
});
