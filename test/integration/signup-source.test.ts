/**
 * Where a signup came from, through the local runner: the real waitlist handler behind the Lambda adapter,
 * dynalite with the production table. With the page's script the UTM values and referring host come in the
 * JSON; without it the form post's Referer (the page's own address) gives the UTM values. What lands on the
 * record is coarse, or nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import {
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { postJoin } from './waitlist-api';

let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `source.${label}.${Date.now()}.${++runId}@example.nl`;

beforeAll(async () => {
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
    clientPostsPerMinute: 0,
  });
});

afterAll(async () => {
  await runner?.close();
});

/** The record stored for `email`, as an operator would read it. */
async function storedRecord(email: string): Promise<WaitlistRecord | undefined> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string);
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: emailKey(email) }, ConsistentRead: true }),
    );
    return Item as WaitlistRecord | undefined;
  } finally {
    client.destroy();
  }
}

/** The form as a browser without the script posts it, from the page at `pagePath` of the runner (or `referer`). */
async function postForm(email: string, { pagePath, referer }: { pagePath?: string; referer?: string }) {
  const response = await fetch(new URL('/api/waitlist', runner.url), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(pagePath !== undefined ? { referer: new URL(pagePath, runner.url).href } : {}),
      ...(referer !== undefined ? { referer } : {}),
    },
    body: new URLSearchParams({ email, language: 'nl', website: '' }).toString(),
  });
  return { status: response.status, location: response.headers.get('location') };
}

describe('the source of a signup with the page’s script (JSON)', () => {
  it('lands on the record with the UTM values and the referring host, cleaned', async () => {
    const email = newAddress('json');
    const sent = {
      email,
      language: 'en',
      utmSource: 'Newsletter',
      utmMedium: ' email ',
      utmCampaign: 'december-2026',
      referrer: 'news.example.org',
    };

    expect((await postJoin(runner.url, sent)).status).toBe(201);

    expect((await storedRecord(email))?.source).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'december-2026',
      referrer: 'news.example.org',
    });
  });

  it('lands with only a referring host when the link had no UTM values', async () => {
    const email = newAddress('referrer');
    expect((await postJoin(runner.url, { email, language: 'nl', referrer: 'instagram.com' })).status).toBe(
      201,
    );

    expect((await storedRecord(email))?.source).toEqual({ referrer: 'instagram.com' });
  });

  it('lands with no source at all when it came with none', async () => {
    const email = newAddress('direct');
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);

    const record = await storedRecord(email);
    expect(record?.createdAt).toBeDefined();
    expect(record).not.toHaveProperty('source');
  });

  it('keeps none of hostile values, and takes the signup', async () => {
    const email = newAddress('hostile');
    const hostile = {
      utmSource: 'https://evil.example/?q=<script>alert(1)</script>',
      utmMedium: 'mail\r\nX-Injected: 1',
      utmCampaign: `${'a'.repeat(41)}`,
      referrer: 'https://user:pass@instagram.com/p/secret',
    };

    expect((await postJoin(runner.url, { email, language: 'nl', ...hostile })).status).toBe(201);

    const record = await storedRecord(email);
    expect(record).not.toHaveProperty('source');
    const stored = JSON.stringify(record);
    for (const part of ['evil', 'script', 'X-Injected', 'aaaaaaaaaa', 'pass', 'secret']) {
      expect(stored).not.toContain(part);
    }
  });

  it('keeps what may be kept of a mix, cut to the safe values', async () => {
    const email = newAddress('mixed');
    const sent = {
      email,
      language: 'nl',
      utmSource: 'Flyer',
      utmMedium: 'qr code',
      referrer: 'ñandú.example',
    };

    expect((await postJoin(runner.url, sent)).status).toBe(201);

    expect((await storedRecord(email))?.source).toEqual({ utmSource: 'flyer' });
  });

  it('refuses a source field of the wrong type with 400, and stores nothing', async () => {
    const email = newAddress('number');

    expect(await postJoin(runner.url, { email, language: 'nl', utmSource: 2026 })).toEqual({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await storedRecord(email)).toBeUndefined();
  });

  it('changes nothing of an address already on the list, whatever source the second signup brings', async () => {
    const email = newAddress('twice');
    expect((await postJoin(runner.url, { email, language: 'nl', utmSource: 'first' })).status).toBe(201);
    const first = await storedRecord(email);

    expect((await postJoin(runner.url, { email, language: 'nl', utmSource: 'second' })).status).toBe(409);

    expect(await storedRecord(email)).toEqual(first);
    expect(first?.source).toEqual({ utmSource: 'first' });
  });
});

describe('the source of a signup without the script (a form post and its Referer)', () => {
  it('lands with the UTM values of the page the form was on', async () => {
    const email = newAddress('form');

    const answer = await postForm(email, {
      pagePath: '/en/?utm_source=Flyer&utm_medium=qr&utm_campaign=market&fbclid=tracking-id',
    });

    expect(answer).toEqual({ status: 303, location: '/waitlist/joined' });
    expect((await storedRecord(email))?.source).toEqual({
      utmSource: 'flyer',
      utmMedium: 'qr',
      utmCampaign: 'market',
    });
  });

  it('lands with no source from a page without UTM values, or without a Referer', async () => {
    const plain = newAddress('form-plain');
    const none = newAddress('form-none');

    expect((await postForm(plain, { pagePath: '/' })).status).toBe(303);
    expect((await postForm(none, {})).status).toBe(303);

    expect(await storedRecord(plain)).not.toHaveProperty('source');
    expect(await storedRecord(none)).not.toHaveProperty('source');
  });

  it('reads nothing from a Referer on another site', async () => {
    const email = newAddress('form-elsewhere');

    expect((await postForm(email, { referer: 'https://evil.example/?utm_source=spam' })).status).toBe(303);

    expect(await storedRecord(email)).not.toHaveProperty('source');
  });

  it('keeps none of the hostile UTM values in a Referer, and the rest as they may be', async () => {
    const email = newAddress('form-hostile');
    const query = new URLSearchParams({
      utm_source: '<script>alert(1)</script>',
      utm_medium: 'https://evil.example/path',
      utm_campaign: 'Launch',
    });

    expect((await postForm(email, { pagePath: `/?${query}` })).status).toBe(303);

    expect((await storedRecord(email))?.source).toEqual({ utmCampaign: 'launch' });
  });
});
