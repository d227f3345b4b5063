/**
 * The store fails in every way it can; the visitor is told the truth each time. 201 means the record is
 * stored, a transient fault is 503 unavailable (see handler.test.ts for the permanent ones), and a retry after recovery joins or says "already registered",
 * never storing a second record.
 */
import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import { PutCommand, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dynamo, handler, logLines, STORE_DEADLINE_MS } from './handler-under-test';
import { httpApiEvent, jsonBody } from './http-api-event';

const ADDRESS = 'Fleur.Jansen@Example.nl';

afterEach(() => {
  vi.useRealTimers();
  // Whatever failed, the logs never name the person.
  expect(logLines.join('\n')).not.toMatch(/fleur|jansen|@example\.nl|visitor\d/i);
});

const join = (email: string) => handler(httpApiEvent({ body: jsonBody({ email, language: 'nl' }) }));
const answer = (result: { statusCode?: number; body?: string }) => ({
  status: result.statusCode,
  body: JSON.parse(result.body ?? ''),
});
const lastLog = () => JSON.parse(logLines.at(-1) ?? '{}');

/** A table with DynamoDB's conditional put, which fails whenever `fails(callNumber)` says so. */
function flakyTable(fails: (call: number) => Error | 'after_writing' | undefined) {
  const records = new Map<string, Record<string, unknown>>();
  let calls = 0;
  dynamo.on(PutCommand).callsFake(async (input: PutCommandInput) => {
    const failure = fails(++calls);
    if (failure instanceof Error) throw failure;
    const key = String(input.Item?.email);
    if (records.has(key)) throw new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
    records.set(key, { ...input.Item });
    // Written, but the answer is lost on the way back: the caller cannot tell it from a failure.
    if (failure === 'after_writing')
      throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    return {};
  });
  return records;
}

const networkError = () =>
  Object.assign(new Error(`connect ECONNREFUSED for ${ADDRESS}`), {
    name: 'NetworkingError',
    code: 'ECONNREFUSED',
  });

describe('waitlist handler when the store fails', () => {
  it.each([
    ['is unreachable', networkError(), 'NetworkingError'],
    [
      'is throttled (provisioned throughput)',
      new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }),
      'ProvisionedThroughputExceededException',
    ],
    [
      'is throttled (on demand)',
      new ThrottlingException({ message: `Throttled ${ADDRESS}`, $metadata: {} }),
      'ThrottlingException',
    ],
  ])(
    'answers 503 unavailable when the store %s, and logs the error name only',
    async (_case, failure, name) => {
      dynamo.on(PutCommand).rejects(failure);

      expect(answer(await join(ADDRESS))).toEqual({ status: 503, body: { error: 'unavailable' } });
      expect(lastLog()).toMatchObject({ outcome: 'unavailable', status: 503, errorName: name });
    },
  );

  it('gives up on a store that never answers after the deadline, with 503, and aborts the request', async () => {
    vi.useFakeTimers();
    dynamo.on(PutCommand).callsFake(() => new Promise(() => {}));

    const pending = join(ADDRESS);
    await vi.advanceTimersByTimeAsync(STORE_DEADLINE_MS - 1);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(answer(await pending)).toEqual({ status: 503, body: { error: 'unavailable' } });
    const putOptions = (dynamo.call(0).args as unknown[])[1] as { abortSignal?: AbortSignal } | undefined;
    expect(putOptions?.abortSignal?.aborted).toBe(true);
    expect(lastLog()).toMatchObject({ outcome: 'unavailable', errorName: 'StoreDeadlineExceeded' });
  });

  it('keeps a deadline inside both the page’s 10 s patience and the function’s 10 s timeout', () => {
    expect(STORE_DEADLINE_MS).toBeGreaterThanOrEqual(2_000);
    expect(STORE_DEADLINE_MS).toBeLessThanOrEqual(6_000);
  });

  it('answers a slow store that makes the deadline, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    dynamo
      .on(PutCommand)
      .callsFake(() => new Promise((resolve) => setTimeout(() => resolve({}), STORE_DEADLINE_MS - 100)));

    const pending = join(ADDRESS);
    await vi.advanceTimersByTimeAsync(STORE_DEADLINE_MS - 100);

    expect(answer(await pending)).toEqual({ status: 201, body: { status: 'joined' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('acknowledges only stored signups while the store fails every other call, and stores none twice after recovery', async () => {
    let recovered = false;
    const records = flakyTable((call) => (!recovered && call % 2 === 0 ? networkError() : undefined));
    const visitors = Array.from({ length: 20 }, (_, index) => `Visitor${index}@Example.nl`);

    const firstTry = [];
    for (const email of visitors) firstTry.push({ email, ...answer(await join(email)) });
    for (const { email, status, body } of firstTry) {
      const stored = records.has(email.toLowerCase());
      expect({ status, body }).toEqual(
        stored
          ? { status: 201, body: { status: 'joined' } }
          : { status: 503, body: { error: 'unavailable' } },
      );
    }
    expect(firstTry.filter(({ status }) => status === 201)).toHaveLength(10);

    recovered = true;
    for (const { email, status } of firstTry) {
      expect(answer(await join(email))).toEqual(
        status === 201
          ? { status: 409, body: { error: 'already_registered' } }
          : { status: 201, body: { status: 'joined' } },
      );
    }
    expect([...records.keys()].sort()).toEqual(visitors.map((email) => email.toLowerCase()).sort());
  });

  it('says "already registered" on retry when the store wrote but its answer was lost', async () => {
    let lost = true;
    const records = flakyTable(() => (lost ? 'after_writing' : undefined));

    expect(answer(await join(ADDRESS))).toEqual({ status: 503, body: { error: 'unavailable' } });
    lost = false;
    expect(answer(await join(ADDRESS))).toEqual({ status: 409, body: { error: 'already_registered' } });
    expect(records.size).toBe(1);
    expect(lastLog()).toMatchObject({ outcome: 'already_registered', status: 409 });
  });
});
