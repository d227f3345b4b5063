/** A proxy cuts every (or every other) store connection: a 201 is kept all the same, and never twice. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { recordsPerAddress, storedEmails } from './store-records';
import { postJoin, withConcurrency } from './waitlist-api';

let store: LocalDynamoDB;
let proxy: FaultProxy;
let runner: LocalRunner;

let runId = 0;
const newAddresses = (label: string, count: number) =>
  Array.from({ length: count }, () => `${label}.${Date.now()}.${++runId}@example.nl`);
const joinAll = (emails: string[]) =>
  withConcurrency(
    4,
    emails.map((email) => async () => ({
      email,
      ...(await postJoin(runner.url, { email, language: 'nl' })),
    })),
  );
const statusesOf = (answers: { status: number }[]) =>
  [...new Set(answers.map(({ status }) => status))].sort();
/** Records per address among `emails`, read through the proxy (which must forward). */
async function recordCounts(emails: string[]): Promise<(number | undefined)[]> {
  const perAddress = recordsPerAddress(await storedEmails(proxy.endpoint, process.env.TABLE_NAME));
  return emails.map((email) => perAddress.get(email));
}

beforeAll(async () => {
  store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-outage-')));
  proxy = await startFaultProxy(store.endpoint);
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  runner = await startLocalRunner({ port: 0, storeEndpoint: proxy.endpoint, distDir });
});

afterAll(async () => {
  await runner?.close();
  await proxy?.close();
  await store?.close();
});

describe('the runner while its store goes away and comes back', () => {
  it('answers 503 while the store is gone, and takes the retries once it is back', async () => {
    const before = newAddresses('before', 10);
    const during = newAddresses('during', 10);
    expect(statusesOf(await joinAll(before))).toEqual([201]);

    proxy.setMode('down');
    const whileDown = await joinAll(during);
    expect(whileDown.map(({ body }) => body)).toEqual(during.map(() => ({ error: 'unavailable' })));

    proxy.setMode('forward');
    // Nothing can have been written while the store was down: every retry is the first signup.
    expect(statusesOf(await joinAll(during))).toEqual([201]);
    expect(statusesOf(await joinAll(before))).toEqual([409]);
    expect(await recordCounts([...before, ...during])).toEqual([...before, ...during].map(() => 1));
  });

  it('keeps every acknowledged signup, once, while every other store connection fails', async () => {
    const emails = newAddresses('flaky', 40);
    proxy.setMode('flaky');
    const answers = await joinAll(emails);
    proxy.setMode('forward');

    expect(proxy.cut.beforeRequest).toBeGreaterThan(0);
    expect(proxy.cut.afterStoreAnswered).toBeGreaterThan(0);
    // A write whose answer was lost is retried by the SDK and then found: "already registered".
    expect(answers.filter(({ status }) => ![201, 409, 503].includes(status))).toEqual([]);
    const acknowledged = answers.filter(({ status }) => status === 201).map(({ email }) => email);
    expect(await recordCounts(acknowledged)).toEqual(acknowledged.map(() => 1));
    // 409 for a failed one would mean it was written after all; both are honest answers.
    const retried = await joinAll(answers.filter(({ status }) => status !== 201).map(({ email }) => email));
    expect(retried.filter(({ status }) => ![201, 409].includes(status))).toEqual([]);
    expect(await recordCounts(emails)).toEqual(emails.map(() => 1));
  });
});
