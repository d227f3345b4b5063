/**
 * `/api/leave-request` as Lambda runs it, the table mocked: a valid address gets the one neutral answer
 * whether or not it is on the list, after the same store work, and the first record of its mailbox,
 * whatever the spelling asked with, is marked as asking for a mail with its leave link, at most once per
 * LEAVE_MAIL_INTERVAL_MINUTES.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  type GetCommandInput,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { LEAVE_MAIL_INTERVAL_MINUTES, LEAVE_REQUEST_PATH } from '#contract/leave';
import { METRIC } from '#contract/metrics';
import { LEAVE_REQUEST_STAND_IN_KEY } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../../functions/store/mailbox';
import { functionUnderTest } from './function-under-test';
import { httpApiEvent } from './http-api-event';

const SECRET = 'a-secret-the-stack-made';
const {
  module: { ANSWER_AFTER_MS, handler },
  dynamo,
  logLines,
} = await functionUnderTest(
  { TABLE_NAME: 'waitlist-test', ORIGIN_VERIFY_SECRET: SECRET, SITE_ORIGINS: 'https://mandje.nl' },
  () => import('../../../functions/leave-link/handler'),
);

const THROUGH_CLOUDFRONT = {
  [ORIGIN_VERIFY_HEADER]: SECRET,
  host: 'abc.execute-api.eu-west-1.amazonaws.com',
};
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

function ask(
  body: string,
  {
    contentType = 'application/json',
    headers = {},
  }: { contentType?: string; headers?: Record<string, string> } = {},
) {
  const event: APIGatewayProxyEventV2 = httpApiEvent({ contentType, body });
  event.rawPath = LEAVE_REQUEST_PATH;
  event.headers = { ...event.headers, ...THROUGH_CLOUDFRONT, ...headers };
  return handler(event) as Promise<{ statusCode?: number; headers?: Record<string, unknown>; body?: string }>;
}
const json = (email: string, language = 'en') => JSON.stringify({ email, language });
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });
/** The table holds a record under every key, one that may be mailed and was not asked for lately. */
const onTheList = () => {
  dynamo.on(QueryCommand).resolves({ Items: [{ email: 'ann@example.nl' }] });
  dynamo.on(GetCommand).resolves({ Item: { email: 'ann@example.nl' } });
  dynamo.on(UpdateCommand).resolves({});
};
const notOnTheList = () => {
  dynamo.on(QueryCommand).resolves({ Items: [] });
  dynamo.on(GetCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
};

/**
 * The waitlist table as far as this route uses it, in memory: the mailbox index gives the keys of a
 * mailbox's records, a read the record under its key, and a write whose condition does not hold fails as
 * DynamoDB fails it (no record, do-not-mail, asked lately).
 */
function tableHolding(records: Record<string, Record<string, unknown>>): void {
  dynamo.on(QueryCommand).callsFake((input: QueryCommandInput) => ({
    Items: Object.keys(records)
      .filter((email) => mailboxHashOf(email) === input.ExpressionAttributeValues?.[':mailbox'])
      .map((email) => ({ email })),
  }));
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: records[String(input.Key?.email)] }));
  dynamo.on(UpdateCommand).callsFake((input: UpdateCommandInput) => {
    const record = records[String(input.Key?.email)];
    const cutoff = String(input.ExpressionAttributeValues?.[':cutoff']);
    const holds =
      input.ConditionExpression === undefined ||
      (record !== undefined &&
        record.mailSuppressed === undefined &&
        (record.leaveMailRequestedAt === undefined || String(record.leaveMailRequestedAt) <= cutoff));
    if (!holds) throw conditionFailed();
    return {};
  });
}

/** What the store was asked, in order, and how each call ended: what its time depends on. */
const storeWork = async () =>
  Promise.all(
    dynamo.calls().map(async (call) => {
      const command = call.args[0] as { constructor: { name: string }; input: { ConsistentRead?: boolean } };
      const ended = call.exception
        ? (call.exception as Error).name
        : await Promise.resolve(call.returnValue).then(
            () => 'done',
            (error: Error) => error.name,
          );
      return `${command.constructor.name}${command.input.ConsistentRead ? ' (consistent)' : ''}: ${ended}`;
    }),
  );

describe('asking for a leave link', () => {
  it('marks the first record of the address’s mailbox, asked with any spelling, as asking for one leave-link mail, if it may be mailed and was not asked lately', async () => {
    // One Gmail mailbox, joined under two spellings: plus tags and dots make no other mailbox there.
    tableHolding({
      'li.sa+mandje@gmail.com': { email: 'li.sa+mandje@gmail.com' },
      'lisa+shop@gmail.com': { email: 'lisa+shop@gmail.com' },
    });
    const before = Date.now();

    const answer = await ask(json(' LiSa@Gmail.com '));

    expect(answer).toMatchObject({ statusCode: 202, body: '{"status":"requested"}' });
    const updates = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates.map((input) => input.Key)).toEqual([{ email: 'li.sa+mandje@gmail.com' }]);
    const values = updates[0]?.ExpressionAttributeValues as Record<string, string>;
    expect(values[':id']).toMatch(/^[0-9a-f-]{36}$/);
    const asked = Date.parse(values[':now'] as string);
    expect(asked).toBeGreaterThanOrEqual(before - 1000);
    expect(asked - Date.parse(values[':cutoff'] as string)).toBe(LEAVE_MAIL_INTERVAL_MINUTES * 60_000);
  });

  it('answers an address that is not on the list, or was asked for lately, exactly as one that is', async () => {
    onTheList();
    const known = await ask(json('ann@example.nl'));
    dynamo.reset();
    notOnTheList();
    const unknown = await ask(json('nobody@example.nl'));

    expect(unknown).toEqual(known);
  });

  it('sends a plain form post on to the requested page in its language, whatever the truth', async () => {
    notOnTheList();

    const answer = await ask('email=nobody%40example.nl&language=en', {
      contentType: 'application/x-www-form-urlencoded',
    });

    expect(answer).toMatchObject({ statusCode: 303, headers: { location: '/en/leave/requested' } });
  });

  it('does the same store work for an address on the list as for one that is not, asked lately, or do-not-mail: the mailbox’s query, one consistent read, one write that is made', async () => {
    const longAgo = new Date(Date.now() - 2 * LEAVE_MAIL_INTERVAL_MINUTES * 60_000).toISOString();
    tableHolding({
      'ann@example.nl': { email: 'ann@example.nl', leaveMailRequestedAt: longAgo },
      'bob@example.nl': { email: 'bob@example.nl', leaveMailRequestedAt: new Date().toISOString() },
      'kim@example.nl': { email: 'kim@example.nl', mailSuppressed: 'complaint' },
    });
    const workFor = async (email: string) => {
      dynamo.resetHistory();
      expect(await ask(json(email))).toMatchObject({ statusCode: 202 });
      return storeWork();
    };

    const member = await workFor('ann@example.nl');
    const stranger = await workFor('nobody@example.nl');
    const askedLately = await workFor('bob@example.nl');
    const doNotMail = await workFor('kim@example.nl');

    expect(stranger).toEqual(member);
    expect(askedLately).toEqual(member);
    expect(doNotMail).toEqual(member);
    expect(member).toEqual(['QueryCommand: done', 'GetCommand (consistent): done', 'UpdateCommand: done']);
    // The mail is asked for the member only: the others' write goes to the stand-in, never to a record.
    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([
      { email: LEAVE_REQUEST_STAND_IN_KEY },
    ]);
  });

  it(`answers a valid address ${ANSWER_AFTER_MS} ms after its store work began, not sooner, whether or not it is on the list`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (const table of [onTheList, notOnTheList]) {
        dynamo.reset();
        table();
        let answered = false;
        const answer = ask(json('ann@example.nl')).then((response) => {
          answered = true;
          return response;
        });

        await vi.advanceTimersByTimeAsync(ANSWER_AFTER_MS - 1);
        expect(answered).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect(answered).toBe(true);
        expect((await answer).statusCode).toBe(202);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes to the stand-in only its own request’s id and time, never an address, and makes no record', async () => {
    notOnTheList();

    await ask(json('nobody@example.nl'));

    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 'waitlist-test',
        Key: { email: LEAVE_REQUEST_STAND_IN_KEY },
        UpdateExpression: 'SET requestId = :id, requestedAt = :now',
        ExpressionAttributeValues: {
          ':id': expect.stringMatching(/^[0-9a-f-]{36}$/),
          ':now': expect.any(String),
        },
      },
    ]);
  });

  it.each(['', 'not an address', 'ann@localhost'])(
    'refuses %j by the one email rule, asking nothing of the store',
    async (email) => {
      const answer = await ask(json(email));

      expect(answer).toMatchObject({ statusCode: 400, body: '{"error":"invalid_email"}' });
      expect(dynamo.calls()).toHaveLength(0);
    },
  );

  it('after a store fault answers 503, or sends the plain form to the try-again page', async () => {
    onTheList();
    dynamo.on(UpdateCommand).rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));

    expect((await ask(json('ann@example.nl'))).statusCode).toBe(503);
    expect(
      (await ask('email=ann%40example.nl&language=nl', { contentType: 'application/x-www-form-urlencoded' }))
        .headers?.location,
    ).toBe('/leave/try-again');
  });

  it('refuses a post another site’s page made, and one around the edge, before the store is asked', async () => {
    const crossSite = await ask(json('ann@example.nl'), { headers: CROSS_SITE });
    const aroundTheEdge = await ask(json('ann@example.nl'), { headers: { [ORIGIN_VERIFY_HEADER]: 'guess' } });

    expect(crossSite.statusCode).toBe(403);
    expect(aroundTheEdge.statusCode).toBe(403);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('logs one line per request with its metrics, never the address', async () => {
    notOnTheList();
    await ask(json('ann@example.nl'));
    await ask(json('not an address'));

    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ Service: 'leave-request', status: 202, [METRIC.requests]: 1 });
    expect(lines[1]).toMatchObject({ outcome: 'invalid_email', [METRIC.invalid]: 1 });
    for (const line of logLines) expect(line).not.toMatch(/ann@|example\.nl/);
  });
});
