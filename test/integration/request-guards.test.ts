/**
 * The guards in front of the waitlist, through the runner as a client meets them: a form another site
 * posted, the per-client limit, the API path rule, HEAD on the confirmation link; and where a signup came
 * from, on the record the real store keeps. Each test speaks from its own loopback address.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { emailKey } from '#contract/email-address';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import type { WaitlistRecord } from '#contract/waitlist-table';
import {
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { plainRequest } from './raw-http';
import { createSiteFixture } from './site-fixture';

const LIMIT = 3;
let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `${label}.${Date.now()}.${++runId}@example.nl`;

beforeAll(async () => {
  const { distDir } = createSiteFixture();
  mkdirSync(join(distDir, '.mandje'));
  for (const language of ['nl', 'en'])
    writeFileSync(
      join(distDir, '.mandje', `confirm.${language}.html`),
      `<!doctype html><html lang="${language}"><body><form method="post" action="/api/confirm"><input type="hidden" name="token" value="${TOKEN_PLACEHOLDER}"></form></body></html>`,
    );
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir, clientPostsPerMinute: LIMIT });
});
afterAll(() => runner?.close());

const send = async (
  from: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) => {
  const answer = await plainRequest(runner.url.slice(0, -1) + path, { ...options, from });
  return { ...answer, body: answer.body.toString() };
};
const post = (
  from: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  headers['content-type']
    ? send(from, path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() })
    : send(from, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(fields),
      });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function recordOf(email: string): Promise<WaitlistRecord | undefined> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string);
  const { Item } = await client.send(
    new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: emailKey(email) } }),
  );
  client.destroy();
  return Item as WaitlistRecord | undefined;
}

const mailsTo = (email: string) =>
  readdirSync(runner.outboxDir)
    .filter((file) => file.endsWith('.eml'))
    .map((file) => readFileSync(join(runner.outboxDir, file), 'utf8'))
    .filter((raw) => raw.includes(email));

/** Waits (a few seconds at most) for a mail to `email`. */
async function mailTo(email: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5_000 && mailsTo(email).length === 0; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return mailsTo(email)[0];
}

describe('a form another site posted', () => {
  it('is refused with 403 and a page in its language, with JSON too: no record, no mail', async () => {
    const [refused, json, welcome] = [
      newAddress('cross-site'),
      newAddress('null-origin'),
      newAddress('same-site'),
    ];
    const crossSite = { ...FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

    const answer = await post('127.0.0.3', '/api/waitlist', { email: refused, language: 'en' }, crossSite);
    const fromNull = await post(
      '127.0.0.3',
      '/api/waitlist',
      { email: json, language: 'nl' },
      { origin: 'null' },
    );
    const own = { ...FORM, origin: runner.url.slice(0, -1), 'sec-fetch-site': 'same-origin' };
    expect((await post('127.0.0.3', '/api/waitlist', { email: welcome, language: 'en' }, own)).status).toBe(
      303,
    );

    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('the form came from another website');
    expect(fromNull.status).toBe(403);
    expect(JSON.parse(fromNull.body)).toEqual({ error: 'forbidden' });
    expect(await mailTo(welcome)).toBeDefined();
    for (const email of [refused, json]) {
      expect(await recordOf(email)).toBeUndefined();
      expect(mailsTo(email)).toEqual([]);
    }
  });
});

describe('the per-client limit and the API path rule', () => {
  it(`answers a client's posts past ${LIMIT} a minute with WAF's 429 page; any other spelling of a route stays 404`, async () => {
    const from = '127.0.0.2';
    // Posts until the first refusal: a minute may turn during the first LIMIT, so allow two windows.
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    let email = '';
    for (let attempt = 0; attempt <= 2 * LIMIT && !refused; attempt++) {
      email = newAddress('flood');
      const answer = await post(from, '/api/waitlist', { email, language: 'nl' });
      if (answer.status !== 201) refused = answer;
    }
    expect(refused?.status).toBe(TOO_MANY_REQUESTS_STATUS);
    expect(refused?.headers['content-type']).toBe(TOO_MANY_REQUESTS_CONTENT_TYPE);
    expect(refused?.headers['retry-after']).toBe(TOO_MANY_REQUESTS_RETRY_AFTER);
    expect(refused?.body).toBe(TOO_MANY_REQUESTS_HTML);
    expect(await recordOf(email)).toBeUndefined();
    const form = await post(from, '/api/waitlist', { email: newAddress('flood-form'), language: 'nl' }, FORM);
    expect(form.status).toBe(TOO_MANY_REQUESTS_STATUS);

    const paths = ['/api/leave/../waitlist', '/api/leave/%2e%2e/waitlist', '/api/leave/..\\waitlist'];
    paths.push('/api/visit/../waitlist', '/api/waitlist/', '/api//waitlist', '/api/%77aitlist');
    const tried = await Promise.all(
      paths.map(async (path) => {
        const address = newAddress('walk-around');
        return { path, address, answer: await post(from, path, { email: address, language: 'nl' }) };
      }),
    );
    for (const { path, address, answer } of tried) {
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toEqual({ error: 'not_found' });
      expect(await recordOf(address), path).toBeUndefined();
    }
    // Only POSTs to the API count: the client can still read the page, and others can still sign up.
    expect((await send(from, '/')).status).toBe(200);
    const later = newAddress('neighbour');
    expect((await post('127.0.0.4', '/api/waitlist', { email: later, language: 'nl' })).status).toBe(201);
    expect(await mailTo(later)).toBeDefined();
    expect(tried.flatMap(({ address }) => mailsTo(address))).toEqual([]);
  });
});

describe('HEAD on the confirmation link', () => {
  it('answers as GET does, without a body, and leaves the signup pending', async () => {
    const email = newAddress('head');
    expect((await post('127.0.0.5', '/api/waitlist', { email, language: 'en' })).status).toBe(201);
    const text = (await mailTo(email))
      ?.split('Content-Type: text/plain')[1]
      ?.split('\r\n\r\n')[1]
      ?.split('\r\n--')[0];
    const link = new URL(
      Buffer.from(text?.replace(/\r\n/g, '') ?? '', 'base64')
        .toString()
        .match(/http:\/\/\S+\/api\/confirm\?\S+/)?.[0] ?? 'http://missing/',
    );

    const head = await send('127.0.0.5', link.pathname + link.search, { method: 'HEAD' });
    const get = await send('127.0.0.5', link.pathname + link.search);

    expect(get.status).toBe(200);
    expect(get.body).toContain('<html lang="en">');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(await recordOf(email)).toMatchObject({ status: 'pending' });
  });
});

describe('where a signup came from', () => {
  it('lands on the record cleaned, from the JSON or a form post’s Referer, and a second signup leaves it', async () => {
    const [json, form] = [newAddress('json'), newAddress('form')];
    const sent = {
      email: json,
      language: 'en',
      utmSource: 'Newsletter',
      utmMedium: ' email ',
      referrer: 'news.example.org',
    };
    expect((await post('127.0.0.6', '/api/waitlist', sent)).status).toBe(201);
    const referer = new URL('/en/?utm_source=Flyer&utm_medium=qr&fbclid=tracking-id', runner.url).href;
    expect(
      (await post('127.0.0.6', '/api/waitlist', { email: form, language: 'nl' }, { ...FORM, referer }))
        .status,
    ).toBe(303);
    expect(
      (await post('127.0.0.7', '/api/waitlist', { email: json, language: 'nl', utmSource: 'second' })).status,
    ).toBe(409);

    expect((await recordOf(json))?.source).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      referrer: 'news.example.org',
    });
    expect((await recordOf(form))?.source).toEqual({ utmSource: 'flyer', utmMedium: 'qr' });
  });
});
