import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { storedEmails } from './store-records';
import { postJoin, withConcurrency } from './waitlist-api';

let runner: LocalRunner;
let runId = 0;
/** A fresh address per test, so tests do not depend on each other. */
const newAddress = (label: string) => `${label}.${Date.now()}.${++runId}@example.nl`;

beforeAll(async () => {
  const emptyDist = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: emptyDist });
});

afterAll(async () => {
  await runner?.close();
});

describe('waitlist API on the local runner', () => {
  it('stores a new address and answers a second request for it with 409', async () => {
    const email = newAddress('twice');

    expect(await postJoin(runner.url, { email, language: 'nl' })).toEqual({
      status: 201,
      body: { status: 'joined' },
    });
    expect(await postJoin(runner.url, { email, language: 'nl' })).toEqual({
      status: 409,
      body: { error: 'already_registered' },
    });
    expect(await storedEmails()).toContain(email);
  });

  it('stores one record when 100 requests for one new address arrive at once', async () => {
    const email = newAddress('race');
    const statuses = (
      await Promise.all(Array.from({ length: 100 }, () => postJoin(runner.url, { email, language: 'nl' })))
    ).map((answer) => answer.status);

    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
  });

  it('stores all of 500 distinct addresses sent 32 at a time', async () => {
    const emails = Array.from({ length: 500 }, (_, index) => newAddress(`bulk${index}`));
    const statuses = await withConcurrency(
      32,
      emails.map((email) => async () => (await postJoin(runner.url, { email, language: 'en' })).status),
    );

    expect(statuses.every((status) => status === 201)).toBe(true);
    const stored = new Set(await storedEmails());
    expect(emails.filter((email) => !stored.has(email))).toEqual([]);
  });

  it('passes the request through the adapter like API Gateway: 303 for a form post, 415 for text, 404 JSON beside the API', async () => {
    const form = await fetch(new URL('/api/waitlist', runner.url), {
      method: 'POST',
      body: new URLSearchParams({ email: 'a@b.nl' }),
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/waitlist/invalid-email');
    expect(form.headers.get('cache-control')).toBe('no-store');

    const text = await fetch(new URL('/api/waitlist', runner.url), { method: 'POST', body: 'a@b.nl' });
    expect(text.status).toBe(415);
    expect(text.headers.get('cache-control')).toBe('no-store');

    const elsewhere = await fetch(new URL('/api/elsewhere', runner.url));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: 'not_found' });
  });
});
