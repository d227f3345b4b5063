/**
 * The per-mailbox mail limit (functions/mailer/mail-limit.ts), the limit table mocked: what it reads and
 * what it writes on which condition. One budget of MAILS_PER_MAILBOX over a sliding MAIL_LIMIT_WINDOW_HOURS;
 * a retry of the same request counts once; two senders that read the same item cannot both take its last
 * place. Against a real store, with spellings and kinds of mail: test/integration/mailbox-budget.test.ts.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_WINDOW_HOURS, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { MailLimitContended, mayMail } from '../../../functions/mailer/mail-limit';
import { mailboxHash } from '../../../functions/store/mailbox';

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const dynamo = mockClient(documentClient);
const limits = { client: documentClient, tableName: 'limits' };

const HOUR = 60 * 60 * 1000;
const WINDOW = MAIL_LIMIT_WINDOW_HOURS * HOUR;
const NOW = new Date('2026-11-24T12:00:00.000Z');
const hoursBefore = (hours: number) => NOW.getTime() - hours * HOUR;
const KEY = { deliveryKeyHash: mailboxHash('limit', 'ann@gmail.com') };

/** The limit item the next reads find. */
const found = (sends: { requestId: string; sentAt: number }[], version = sends.length) =>
  dynamo.on(GetCommand).resolves({ Item: { ...KEY, sends, version } });
const writes = () => dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });

beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).resolves({});
  dynamo.on(PutCommand).resolves({});
});

describe('the per-mailbox mail limit', () => {
  it('lets the first mail to a mailbox through: a new item, on condition that none was written meanwhile', async () => {
    expect(await mayMail(limits, 'a.nn+x@googlemail.com', 'r1', { now: NOW })).toBe(true);

    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toEqual({
      TableName: 'limits',
      Key: KEY,
      ConsistentRead: true,
    });
    expect(writes()).toEqual([
      {
        TableName: 'limits',
        Item: {
          ...KEY,
          sends: [{ requestId: 'r1', sentAt: NOW.getTime() }],
          version: 1,
          expiresAt: (NOW.getTime() + WINDOW) / 1000,
        },
        ConditionExpression: 'attribute_not_exists(#version)',
        ExpressionAttributeNames: { '#version': 'version' },
      },
    ]);
    expect(JSON.stringify(writes())).not.toMatch(/ann|gmail/);
  });

  it('lets every mail to the smoke check’s simulator address through, unrecorded: it reaches no inbox', async () => {
    for (const requestId of ['r1', 'r2', 'r3', 'r4'])
      expect(await mayMail(limits, 'success@simulator.amazonses.com', requestId, { now: NOW })).toBe(true);
    expect(dynamo.calls()).toEqual([]);
  });

  it('holds any other address of the simulator’s domain to the limit, as anyone', async () => {
    await mayMail(limits, 'success+1@simulator.amazonses.com', 'r1', { now: NOW });
    expect(dynamo.calls().length).toBeGreaterThan(0);
  });

  it(`refuses a mailbox with ${MAILS_PER_MAILBOX} mails in the last ${MAIL_LIMIT_WINDOW_HOURS} hours, however they are spread, and writes nothing`, async () => {
    found([
      { requestId: 'r1', sentAt: hoursBefore(23.9) },
      { requestId: 'r2', sentAt: hoursBefore(12) },
      { requestId: 'r3', sentAt: hoursBefore(0.1) },
    ]);

    expect(await mayMail(limits, 'ann@gmail.com', 'r4', { now: NOW })).toBe(false);

    expect(writes()).toEqual([]);
  });

  it('slides: a mail leaves the window exactly its length after it went, and its place is free again', async () => {
    const sends = [
      { requestId: 'r1', sentAt: hoursBefore(24) },
      { requestId: 'r2', sentAt: hoursBefore(1) },
      { requestId: 'r3', sentAt: hoursBefore(0.5) },
    ];
    found(sends);
    // A millisecond earlier, r1 is still inside the window.
    expect(await mayMail(limits, 'ann@gmail.com', 'r4', { now: new Date(NOW.getTime() - 1) })).toBe(false);

    expect(await mayMail(limits, 'ann@gmail.com', 'r4', { now: NOW })).toBe(true);

    expect(writes()).toEqual([
      expect.objectContaining({
        // Only the mails still in the window are kept, with the new one.
        Item: {
          ...KEY,
          sends: [...sends.slice(1), { requestId: 'r4', sentAt: NOW.getTime() }],
          version: 4,
          expiresAt: (NOW.getTime() + WINDOW) / 1000,
        },
        ConditionExpression: '#version = :version',
        ExpressionAttributeValues: { ':version': 3 },
      }),
    ]);
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

  it('takes the last place only if nobody took it since the read: the loser reads again and is refused', async () => {
    const two = [
      { requestId: 'r1', sentAt: hoursBefore(3) },
      { requestId: 'r2', sentAt: hoursBefore(2) },
    ];
    dynamo
      .on(GetCommand)
      .resolvesOnce({ Item: { ...KEY, sends: two, version: 7 } })
      .resolves({
        Item: { ...KEY, sends: [...two, { requestId: 'other', sentAt: NOW.getTime() }], version: 8 },
      });
    dynamo.on(PutCommand).rejects(conditionFailed());

    expect(await mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).toBe(false);

    expect(writes()).toEqual([
      expect.objectContaining({
        Item: expect.objectContaining({ version: 8 }),
        ConditionExpression: '#version = :version',
        ExpressionAttributeValues: { ':version': 7 },
      }),
    ]);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('reads again after losing a race for a place that is not the last, and takes the next', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({})
      .resolves({ Item: { ...KEY, sends: [{ requestId: 'other', sentAt: NOW.getTime() }], version: 1 } });
    dynamo.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});

    expect(await mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).toBe(true);

    expect(writes().map((write) => write.ConditionExpression)).toEqual([
      'attribute_not_exists(#version)',
      '#version = :version',
    ]);
  });

  it('gives up, for the mail to be tried again later, when other senders keep winning', async () => {
    dynamo.on(PutCommand).rejects(conditionFailed());

    await expect(mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).rejects.toBeInstanceOf(
      MailLimitContended,
    );
  });

  it('throws a store failure rather than let a mail through or hold it back for good', async () => {
    dynamo.on(GetCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    await expect(mayMail(limits, 'ann@gmail.com', 'mine', { now: NOW })).rejects.toThrow('busy');
  });
});
