/**
 * The guards in front of the waitlist, through the runner as a client meets them: a form another site
 * posted (403, nothing stored, no mail), the per-client limit (429 with the page WAF sends), HEAD on every
 * page and on the confirmation link, and paths with empty segments. Each test speaks from its own
 * loopback address, so each is its own client to the limit.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
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
      `<!doctype html><html lang="${language}"><body><form method="post" action="/api/confirm"><input type="hidden" name="token" value="${TOKEN_PLACEHOLDER}"><button>Confirm</button></form></body></html>`,
    );
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir, clientPostsPerMinute: LIMIT });
});

afterAll(async () => {
  await runner?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request from the loopback address `from` (any 127.x.y.z reaches a runner on 127.0.0.1). */
function send(
  from: string,
  path: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(runner.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: hostname, port, path, method, headers, localAddress: from, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const formBody = (email: string, language: string) =>
  `email=${encodeURIComponent(email)}&language=${language}`;

async function recordOf(email: string): Promise<WaitlistRecord | undefined> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string);
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: emailKey(email) } }),
    );
    return Item as WaitlistRecord | undefined;
  } finally {
    client.destroy();
  }
}

const mailsTo = (email: string) => {
  const outbox = runner.outboxDir as string;
  return readdirSync(outbox)
    .filter((file) => file.endsWith('.eml'))
    .map((file) => readFileSync(join(outbox, file), 'utf8'))
    .filter((raw) => raw.includes(email));
};

/** Waits (a few seconds at most) for a mail to `email`. */
async function mailTo(email: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const [mail] = mailsTo(email);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** The confirmation link's path and query, from a raw mail's plain-text part. */
function linkIn(raw: string): string {
  const part = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
  const text = Buffer.from(part.replace(/\r\n/g, ''), 'base64').toString();
  const link = new URL(text.match(/http:\/\/\S+\/api\/confirm\?\S+/)?.[0] ?? 'http://missing/');
  return link.pathname + link.search;
}

describe('a form another site posted', () => {
  const from = '127.0.0.3';
  const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  it('is refused with 403 and a page in its language: no record, no mail', async () => {
    const refused = newAddress('cross-site');
    const welcome = newAddress('same-site');

    const answer = await send(from, '/api/waitlist', {
      method: 'POST',
      headers: { ...FORM, ...crossSite },
      body: formBody(refused, 'en'),
    });
    // The site's own form, for comparison: stored and mailed.
    const own = await send(from, '/api/waitlist', {
      method: 'POST',
      headers: { ...FORM, origin: runner.url.slice(0, -1), 'sec-fetch-site': 'same-origin' },
      body: formBody(welcome, 'en'),
    });

    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('<html lang="en">');
    expect(answer.body).toContain('the form came from another website');
    expect(own.status).toBe(303);
    expect(await mailTo(welcome)).toBeDefined();
    expect(await recordOf(refused)).toBeUndefined();
    expect(mailsTo(refused)).toEqual([]);
  });

  it('with JSON, or from a page with Origin null, gets the JSON error and stores nothing', async () => {
    const email = newAddress('null-origin');

    const answer = await send(from, '/api/waitlist', {
      method: 'POST',
      headers: { ...JSON_TYPE, origin: 'null' },
      body: JSON.stringify({ email, language: 'nl' }),
    });

    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: 'forbidden' });
    expect(await recordOf(email)).toBeUndefined();
  });
});

describe('the per-client limit', () => {
  it(`answers a client's posts past ${LIMIT} a minute with WAF's 429 page; the handler never sees them`, async () => {
    const from = '127.0.0.2';
    const post = (email: string) =>
      send(from, '/api/waitlist', {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ email, language: 'nl' }),
      });
    // Posts until the first refusal: a minute may turn during the first LIMIT, so allow two windows.
    const addresses: string[] = [];
    let refused: Answer | undefined;
    for (let attempt = 0; attempt <= 2 * LIMIT && !refused; attempt++) {
      addresses.push(newAddress('flood'));
      const answer = await post(addresses.at(-1) as string);
      if (answer.status !== 201) refused = answer;
    }
    const refusedAddress = addresses.at(-1) as string;

    expect(refused?.status).toBe(TOO_MANY_REQUESTS_STATUS);
    expect(refused?.headers['content-type']).toBe(TOO_MANY_REQUESTS_CONTENT_TYPE);
    expect(refused?.headers['retry-after']).toBe(TOO_MANY_REQUESTS_RETRY_AFTER);
    expect(refused?.body).toBe(TOO_MANY_REQUESTS_HTML);
    expect(await recordOf(refusedAddress)).toBeUndefined();

    // A form post gets the same page, which tells a visitor without script to try again.
    const form = await send(from, '/api/waitlist', {
      method: 'POST',
      headers: FORM,
      body: formBody(newAddress('flood-form'), 'nl'),
    });
    expect(form.status).toBe(TOO_MANY_REQUESTS_STATUS);
    expect(form.body).toContain('probeer het dan opnieuw');
    expect(form.body).toContain('then try again');

    // Only POSTs to the API count: the client can still read the page, and others can still sign up.
    expect((await send(from, '/')).status).toBe(200);
    const other = await send('127.0.0.4', '/api/waitlist', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ email: newAddress('neighbour'), language: 'nl' }),
    });
    expect(other.status).toBe(201);
  });
});

describe('API paths that only resolve to a route', () => {
  it('are refused with 404 once the limit is spent, as before it: no record, no mail', async () => {
    const join = (from: string, path: string, email: string) =>
      send(from, path, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ email, language: 'nl' }),
      });
    const from = '127.0.0.7';
    while ((await join(from, '/api/waitlist', newAddress('spend'))).status !== TOO_MANY_REQUESTS_STATUS);

    const paths = [
      '/api/leave/../waitlist',
      '/api/leave/%2e%2e/waitlist',
      '/api/leave/..\\waitlist',
      '/api/visit/../waitlist',
      '/api/waitlist/',
      '/api//waitlist',
      '/api/%77aitlist',
    ];
    const tried = await Promise.all(
      paths.map(async (path) => {
        const email = newAddress('walk-around');
        return { path, email, answer: await join(from, path, email) };
      }),
    );

    for (const { path, email, answer } of tried) {
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toEqual({ error: 'not_found' });
      expect(await recordOf(email), path).toBeUndefined();
    }
    // Another client's signup still goes through; once its mail is out, none is coming for the others.
    const later = newAddress('later');
    expect((await join('127.0.0.8', '/api/waitlist', later)).status).toBe(201);
    expect(await mailTo(later)).toBeDefined();
    expect(tried.flatMap(({ email }) => mailsTo(email))).toEqual([]);
  });
});

describe('HEAD mirrors GET', () => {
  const from = '127.0.0.5';
  /** The headers that may differ between two answers to the same request. */
  const comparable = ({ date: _date, ...headers }: IncomingHttpHeaders) => headers;

  it.each([
    '/',
    '/en/',
    '/privacy',
    '/en/privacy/',
    '/nope',
    '/en/nope',
    '/favicon.svg',
    '/assets/index-Ab12Cd34.js',
  ])('on %s: same status and headers, no body', async (path) => {
    const get = await send(from, path, { headers: { 'accept-encoding': 'br' } });
    const head = await send(from, path, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });

    expect(head.status).toBe(get.status);
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
    expect(head.body).toBe('');
  });

  it('on the confirmation link: the page’s status and headers, no body, and the signup stays pending', async () => {
    const email = newAddress('head');
    const joined = await send(from, '/api/waitlist', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ email, language: 'en' }),
    });
    expect(joined.status).toBe(201);
    const mail = await mailTo(email);
    const link = linkIn(mail as string);

    const head = await send(from, link, { method: 'HEAD' });
    const get = await send(from, link);

    expect(get.status).toBe(200);
    expect(get.body).toContain('<html lang="en">');
    expect(head.status).toBe(get.status);
    const { 'content-length': _length, ...getHeaders } = comparable(get.headers);
    expect(comparable(head.headers)).toEqual(getHeaders);
    expect(head.body).toBe('');
    expect(await recordOf(email)).toMatchObject({ status: 'pending' });
  });
});

describe('paths with empty segments', () => {
  const from = '127.0.0.6';

  it.each([
    ['///index.html', '/'],
    ['//', '/'],
    ['/en//', '/en/'],
    ['//privacy', '/privacy'],
    ['/en//privacy/', '/en/privacy'],
  ])('%s moves to the page it spells, %s', async (path, location) => {
    const answer = await send(from, path);

    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(location);
  });

  it.each([
    ['//assets/index-Ab12Cd34.js', 'Pagina niet gevonden'],
    ['/en//nope', 'Page not found'],
  ])('%s is not found', async (path, title) => {
    const answer = await send(from, path);

    expect(answer.status).toBe(404);
    expect(answer.body).toContain(title);
  });
});
