/**
 * One mailbox is one record: the identity rule over real HTTP, through the local runner's adapter and the
 * real handler, against dynalite (the body rules are the unit tier's, test/unit/functions/api.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { storedEmails } from './store-records';
import { postJoin } from './waitlist-api';

let runner: LocalRunner;
let runId = 0;
/** A local part no other test uses, so each case starts from an empty list for its mailbox. */
const fresh = (label: string) => `${label}${Date.now().toString(36)}${++runId}`;

beforeAll(async () => {
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
  });
});

afterAll(async () => {
  await runner?.close();
});

const recordsFor = async (key: string) => (await storedEmails()).filter((stored) => stored === key);

describe('one mailbox is one record', () => {
  it.each([
    [
      'NFC and NFD in the domain',
      (local: string) => [`${local}@b\u00fccher.nl`, `${local}@bu\u0308cher.nl`],
      '@xn--bcher-kva.nl',
    ],
    [
      'a Unicode domain and its punycode',
      (local: string) => [`${local}@bücher.de`, `${local}@xn--bcher-kva.de`],
      '@xn--bcher-kva.de',
    ],
    ['a trailing dot', (local: string) => [`${local}@example.com`, `${local}@example.com.`], '@example.com'],
    ['case', (local: string) => [`${local}@example.nl`, `${local.toUpperCase()}@EXAMPLE.NL`], '@example.nl'],
    [
      'a fullwidth domain',
      (local: string) => [`${local}@example.nl`, `${local}@ｅｘａｍｐｌｅ．ｎｌ`],
      '@example.nl',
    ],
  ])('%s: the second way of typing it is already registered', async (_case, typings, keyEnd) => {
    const local = fresh('same');
    const [first, second] = typings(local) as [string, string];

    expect((await postJoin(runner.url, { email: first, language: 'nl' })).status).toBe(201);
    expect(await postJoin(runner.url, { email: second, language: 'en' })).toEqual({
      status: 409,
      body: { error: 'already_registered' },
    });
    const stored = (await storedEmails()).filter((key) => key.startsWith(local.toLowerCase()));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.endsWith(keyEnd)).toBe(true);
  });
});

describe('headers as API Gateway passes them', () => {
  it('joins a repeated Content-Type with a comma, as API Gateway does, so two types are refused with 415', async () => {
    const email = `${fresh('twotypes')}@x.nl`;
    const status = await new Promise<number>((resolveStatus, reject) => {
      const request = httpRequest(new URL('/api/waitlist', runner.url), {
        method: 'POST',
        headers: { 'content-type': ['application/json', 'text/plain'] },
      });
      request.once('response', (response) => {
        response.resume();
        resolveStatus(response.statusCode ?? 0);
      });
      request.once('error', reject);
      request.end(JSON.stringify({ email, language: 'nl' }));
    });

    expect(status).toBe(415);
    expect(await recordsFor(email)).toHaveLength(0);
  });
});
