import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { recordsPerAddress, storedEmails } from './store-records';
import { postJoin, withConcurrency } from './waitlist-api';

/**
 * The store failing under a running runner, end to end: real handler, real SDK, dynalite on disk, and a
 * proxy between them that can cut every connection (the store gone) or fail every other one. Whatever
 * happens, a signup answered 201 is in the store afterwards, and no address ever has two records.
 */
let store: LocalDynamoDB;
let proxy: FaultProxy;
let runner: LocalRunner;

let runId = 0;
const newAddresses = (label: string, count: number) =>
  Array.from({ length: count }, () => `${label}.${Date.now()}.${++runId}@example.nl`);

async function timedJoin(email: string) {
  const started = performance.now();
  const answer = await postJoin(runner.url, { email, language: 'nl' });
  return { email, ...answer, elapsedMs: performance.now() - started };
}

/** Records per address among `emails`, read from the store through the proxy (which must forward). */
async function recordCounts(emails: string[]): Promise<(number | undefined)[]> {
  const perAddress = recordsPerAddress(await storedEmails(proxy.endpoint, process.env.TABLE_NAME));
  return emails.map((email) => perAddress.get(email));
}

beforeAll(async () => {
  store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-outage-')));
  proxy = await startFaultProxy(store.endpoint);
  runner = await startLocalRunner({
    port: 0,
    storeEndpoint: proxy.endpoint,
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
  });
});

afterAll(async () => {
  await runner?.close();
  await proxy?.close();
  await store?.close();
});

describe('the runner while its store goes away and comes back', () => {
  it('answers 503 within seconds while the store is gone, and takes the retries once it is back', async () => {
    const before = newAddresses('before', 10);
    const during = newAddresses('during', 10);

    const whileUp = await withConcurrency(
      5,
      before.map((email) => () => timedJoin(email)),
    );
    expect(whileUp.map((answer) => answer.status)).toEqual(before.map(() => 201));

    proxy.setMode('down');
    const whileDown = await withConcurrency(
      5,
      during.map((email) => () => timedJoin(email)),
    );
    for (const answer of whileDown) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'unavailable' });
      expect(answer.elapsedMs).toBeLessThan(5_000);
    }
    // The same signup posted by the form without a script is sent to the try-again page.
    const formPost = await fetch(new URL('/api/waitlist', runner.url), {
      method: 'POST',
      body: new URLSearchParams({ email: during[0] as string, language: 'en' }),
      redirect: 'manual',
    });
    expect(formPost.status).toBe(303);
    expect(formPost.headers.get('location')).toBe('/en/waitlist/try-again');

    proxy.setMode('forward');
    const retried = await withConcurrency(
      5,
      during.map((email) => () => timedJoin(email)),
    );
    // Nothing can have been written while the store was down: every retry is the first signup.
    expect(retried.map((answer) => answer.status)).toEqual(during.map(() => 201));
    const again = await withConcurrency(
      5,
      before.map((email) => () => timedJoin(email)),
    );
    expect(again.map((answer) => answer.status)).toEqual(before.map(() => 409));

    expect(await recordCounts([...before, ...during])).toEqual([...before, ...during].map(() => 1));
  });

  it('keeps every signup acknowledged while the store goes away mid-load, and a retry never adds a record', async () => {
    const emails = newAddresses('midload', 40);
    const load = withConcurrency(
      4,
      emails.map((email) => () => timedJoin(email)),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    proxy.setMode('down');
    const answers = await load;
    proxy.setMode('forward');

    expect(answers.filter((answer) => ![201, 503].includes(answer.status))).toEqual([]);
    // The stop really caught the load: some got through, some did not.
    expect(answers.some((answer) => answer.status === 503)).toBe(true);
    const acknowledged = answers.filter((answer) => answer.status === 201).map((answer) => answer.email);
    const failed = answers.filter((answer) => answer.status === 503).map((answer) => answer.email);

    const retried = await withConcurrency(
      4,
      failed.map((email) => () => timedJoin(email)),
    );
    // 409 for a failed one would mean it was written after all; both are honest answers.
    expect(retried.filter((answer) => ![201, 409].includes(answer.status))).toEqual([]);
    expect(await recordCounts(acknowledged)).toEqual(acknowledged.map(() => 1));
    expect(await recordCounts(emails)).toEqual(emails.map(() => 1));
  });

  it('keeps every acknowledged signup, once, while every other store connection fails', async () => {
    const emails = newAddresses('flaky', 40);
    proxy.setMode('flaky');
    const answers = await withConcurrency(
      4,
      emails.map((email) => () => timedJoin(email)),
    );
    proxy.setMode('forward');

    expect(proxy.cut.beforeRequest).toBeGreaterThan(0);
    expect(proxy.cut.afterStoreAnswered).toBeGreaterThan(0);
    // A write whose answer was lost is retried by the SDK and then found: "already registered".
    expect(answers.filter((answer) => ![201, 409, 503].includes(answer.status))).toEqual([]);
    const acknowledged = answers.filter((answer) => answer.status === 201).map((answer) => answer.email);
    expect(await recordCounts(acknowledged)).toEqual(acknowledged.map(() => 1));

    const unsettled = answers.filter((answer) => answer.status !== 201).map((answer) => answer.email);
    const retried = await withConcurrency(
      4,
      unsettled.map((email) => () => timedJoin(email)),
    );
    expect(retried.filter((answer) => ![201, 409].includes(answer.status))).toEqual([]);
    expect(await recordCounts(emails)).toEqual(emails.map(() => 1));
  });
});
