/** A proxy cuts every (or every other) store connection: a 201 is kept all the same, and never twice. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startLocalDynamoDB } from '../../local/local-dynamodb';
import { startLocalRunner } from '../../local/runner';
import { startFaultProxy } from './fault-proxy';
import { recordsPerAddress, storedEmails } from './store-records';
import { postJoin, withConcurrency } from './waitlist-api';

const store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-outage-')));
const proxy = await startFaultProxy(store.endpoint);
const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
const runner = await startLocalRunner({ port: 0, storeEndpoint: proxy.endpoint, distDir });
afterAll(async () => {
  await runner.close();
  await proxy.close();
  await store.close();
});

const addresses = (label: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${label}.${index}.${Date.now()}@example.nl`);
const joinAll = (emails: string[]) =>
  withConcurrency(
    4,
    emails.map((email) => async () => ({
      email,
      ...(await postJoin(runner.url, { email, language: 'nl' })),
    })),
  );
const statuses = (answers: { status: number }[]) => [...new Set(answers.map(({ status }) => status))].sort();

it('answers 503 while its store is gone, keeps each 201 once while every other store connection fails, and takes the retries', async () => {
  const before = addresses('before', 10);
  const during = addresses('during', 10);
  const flaky = addresses('flaky', 40);
  expect(statuses(await joinAll(before))).toEqual([201]);

  proxy.setMode('down');
  expect((await joinAll(during)).map(({ body }) => body)).toEqual(
    during.map(() => ({ error: 'unavailable' })),
  );
  proxy.setMode('flaky');
  const answers = await joinAll(flaky);
  proxy.setMode('forward');

  expect(proxy.cut.beforeRequest).toBeGreaterThan(0);
  expect(proxy.cut.afterStoreAnswered).toBeGreaterThan(0);
  // A write whose answer was lost is retried by the SDK and then found: "already registered".
  expect(statuses(answers).filter((status) => ![201, 409, 503].includes(status))).toEqual([]);
  const acknowledged = answers.filter(({ status }) => status === 201).map(({ email }) => email);
  const perAddress = async (emails: string[]) => {
    const counts = recordsPerAddress(await storedEmails(proxy.endpoint, process.env.TABLE_NAME));
    return emails.map((email) => counts.get(email));
  };
  expect(await perAddress(acknowledged)).toEqual(acknowledged.map(() => 1));
  // Nothing was written while the store was down: every retry is the first signup.
  expect(statuses(await joinAll(during))).toEqual([201]);
  expect(statuses(await joinAll(before))).toEqual([409]);
  // 409 for a failed one would mean it was written after all; both are honest answers.
  const retried = await joinAll(answers.filter(({ status }) => status !== 201).map(({ email }) => email));
  expect(statuses(retried).filter((status) => ![201, 409].includes(status))).toEqual([]);
  const all = [...before, ...during, ...flaky];
  expect(await perAddress(all)).toEqual(all.map(() => 1));
});
