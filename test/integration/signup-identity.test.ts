/**
 * One mailbox is one record, and bytes are what they say they are: the identity rule and the body rules
 * exercised over real HTTP, through the local runner's adapter and the real handler, against dynalite.
 */
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { MAX_BODY_BYTES } from '../../local/lambda-http-adapter';
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

/** Sends raw bytes to the API with the headers given, without following a redirect. */
function post(body: Buffer | string, headers: Record<string, string>) {
  return fetch(new URL('/api/waitlist', runner.url), {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers,
    redirect: 'manual',
  });
}

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

  it.each([
    ['a zero-width space', (local: string) => `${local}@x.nl\u200b`],
    ['a right-to-left override', (local: string) => `${local}\u202e@x.nl`],
    ['a soft hyphen', (local: string) => `${local}@exam\u00adple.nl`],
    ['only dots as a domain', (local: string) => `${local}@...`],
    ['a 249-character local part', (local: string) => `${local}${'a'.repeat(249 - local.length)}@x.nl`],
  ])('refuses %s with 400 invalid_email and stores nothing', async (_case, typed) => {
    const local = fresh('refused');
    const before = (await storedEmails()).length;

    expect(await postJoin(runner.url, { email: typed(local), language: 'nl' })).toEqual({
      status: 400,
      body: { error: 'invalid_email' },
    });
    expect((await storedEmails()).length).toBe(before);
  });

  it('keeps the address with a zero-width space apart from nothing: the clean one still joins', async () => {
    const email = `${fresh('zw')}@x.nl`;
    expect((await postJoin(runner.url, { email: `${email}\u200b`, language: 'nl' })).status).toBe(400);
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);
    expect(await recordsFor(email)).toHaveLength(1);
  });
});

describe('bytes are what they say they are', () => {
  const json = (email: string) => JSON.stringify({ email, language: 'nl' });

  it('refuses a JSON body that is not valid UTF-8 with 400 invalid_request', async () => {
    const local = fresh('latin');
    const body = Buffer.concat([
      Buffer.from(`{"email":"${local}`),
      Buffer.from([0xe9]),
      Buffer.from('@x.nl","language":"nl"}'),
    ]);
    const answer = await post(body, { 'content-type': 'application/json' });

    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid_request' });
    expect((await storedEmails()).some((key) => key.startsWith(local.toLowerCase()))).toBe(false);
  });

  it('never lets two people collide on replaced bytes: two different broken addresses are both refused', async () => {
    const local = fresh('collide');
    for (const byte of [0xe9, 0xfc]) {
      const body = Buffer.concat([
        Buffer.from(`{"email":"${local}`),
        Buffer.from([byte]),
        Buffer.from('@x.nl","language":"nl"}'),
      ]);
      expect((await post(body, { 'content-type': 'application/json' })).status).toBe(400);
    }
    expect((await storedEmails()).some((key) => key.startsWith(local.toLowerCase()))).toBe(false);
  });

  it.each([
    'application/json; charset=iso-8859-1',
    'application/x-www-form-urlencoded; charset=windows-1252',
  ])('refuses a declared charset other than UTF-8 (%s) with 415', async (contentType) => {
    const answer = await post(json(`${fresh('charset')}@x.nl`), { 'content-type': contentType });
    expect(answer.status).toBe(415);
    expect(await answer.json()).toEqual({ error: 'unsupported_media_type' });
  });

  it('refuses a gzip-compressed body with 415, rather than reading it as text', async () => {
    const email = `${fresh('gzip')}@x.nl`;
    const answer = await post(gzipSync(json(email)), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });

    expect(answer.status).toBe(415);
    expect(await recordsFor(email)).toHaveLength(0);
  });
});

describe('a plain form post', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

  it('joins and then finds the address already registered, with no address in any URL', async () => {
    const email = `${fresh('form')}@example.nl`;
    const first = await post(form({ email, language: 'en', website: '' }), formHeaders);
    const second = await post(form({ email: email.toUpperCase(), language: 'en', website: '' }), formHeaders);

    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/en/waitlist/joined');
    expect(second.headers.get('location')).toBe('/en/waitlist/already-registered');
    for (const answer of [first, second]) expect(answer.headers.get('location')).not.toContain('@');
    expect(await recordsFor(email)).toHaveLength(1);
  });

  it('takes a form body of exactly MAX_REQUEST_BYTES and sends one byte more to the invalid-address page', async () => {
    const email = `${fresh('limit')}@example.nl`;
    const padding = (fields: string) =>
      `&padding=${'x'.repeat(MAX_REQUEST_BYTES - fields.length - '&padding='.length)}`;
    const base = form({ email, language: 'nl', website: '' });
    const atLimit = `${base}${padding(base)}`;
    // One more character in the address, the same padding: one byte over.
    const over = `${form({ email: `o${email}`, language: 'nl', website: '' })}${padding(base)}`;
    expect(Buffer.byteLength(atLimit)).toBe(MAX_REQUEST_BYTES);
    expect(Buffer.byteLength(over)).toBe(MAX_REQUEST_BYTES + 1);

    expect((await post(over, formHeaders)).headers.get('location')).toBe('/waitlist/invalid-email');
    expect(await recordsFor(`o${email}`)).toHaveLength(0);

    const answer = await post(atLimit, formHeaders);
    expect(answer.headers.get('location')).toBe('/waitlist/joined');
    expect(await recordsFor(email)).toHaveLength(1);
  });

  it('refuses a form body over the runner’s own cap with 413 before reading it', async () => {
    const answer = await post(
      `email=a%40x.nl&language=nl&padding=${'x'.repeat(MAX_BODY_BYTES)}`,
      formHeaders,
    );
    expect(answer.status).toBe(413);
  });

  it('sends a form body with bytes that are not UTF-8 to the invalid-address page, storing nothing', async () => {
    const local = fresh('formlatin');
    const answer = await post(`email=${local}%E9%40x.nl&language=nl`, formHeaders);

    expect(answer.headers.get('location')).toBe('/waitlist/invalid-email');
    expect((await storedEmails()).some((key) => key.startsWith(local.toLowerCase()))).toBe(false);
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
