import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '#contract/security-headers';
import { MAX_BODY_BYTES } from '../../local/lambda-http-adapter';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { firstStatus, httpRequest, openRaw, rawRequest } from './raw-http';
import { createSiteFixture, SECRET_MARKER, type SiteFixture } from './site-fixture';
import { recordsPerAddress, storedEmails } from './store-records';
import { postJoin } from './waitlist-api';

/**
 * Hostile HTTP against the runner, on raw sockets: what browsers never send, what attackers and broken
 * clients do. The runner must answer each with a 4xx or close the connection, never crash, never serve
 * a file from outside the built page, and still take signups afterwards.
 */
let site: SiteFixture;
let runner: LocalRunner;
const crashes: unknown[] = [];
const recordCrash = (error: unknown) => crashes.push(error);

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;

let runId = 0;
const newAddress = (label: string) => `${label}.${Date.now()}.${++runId}@example.nl`;
const signupBody = (email: string) => JSON.stringify({ email, language: 'nl' });

const postHead = (length: number | 'chunked', extra = '') =>
  `POST /api/waitlist HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n${
    length === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${length}`
  }\r\n${extra}\r\n`;

beforeAll(async () => {
  process.on('unhandledRejection', recordCrash);
  process.on('uncaughtException', recordCrash);
  site = createSiteFixture();
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: site.distDir,
    // Short, so that the slow-client tests take seconds; the defaults are the same mechanism.
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
});

afterAll(async () => {
  await runner?.close();
  process.off('unhandledRejection', recordCrash);
  process.off('uncaughtException', recordCrash);
});

describe('malformed HTTP', () => {
  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a request line without a path', 'GET\r\n\r\n'],
    ['a request line with extra words', 'GET / HTTP/1.1 extra\r\nhost: x\r\n\r\n'],
    ['a NUL byte in the path', 'GET /\x00 HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['an unknown protocol', 'GET / FTP/1.1\r\nhost: x\r\n\r\n'],
    ['an HTTP version that does not exist', 'GET / HTTP/3.0\r\nhost: x\r\n\r\n'],
    ['a header name with a space', 'GET / HTTP/1.1\r\nhost: x\r\nbad header: x\r\n\r\n'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nhost: x\r\nnocolon\r\n\r\n'],
    ['a control character in a header value', 'GET / HTTP/1.1\r\nhost: x\r\nx-a: a\x01b\r\n\r\n'],
    ['HTTP/1.1 without a host', 'GET / HTTP/1.1\r\n\r\n'],
    ['a Content-Length that is not a number', `${postHead(Number.NaN)}\r\n`],
    ['two different Content-Lengths', `${postHead(5, 'content-length: 6\r\n')}hello!`],
    ['Content-Length and chunked together', `${postHead(5, 'transfer-encoding: chunked\r\n')}0\r\n\r\n`],
    ['a chunk size that is not hexadecimal', `${postHead('chunked')}zz\r\nabc\r\n0\r\n\r\n`],
  ])('answers %s with 400 and closes the connection', async (_, bytes) => {
    const answer = await rawRequest(runner.url, bytes);

    expect(answer.status).toBe(400);
    expect(answer.closedByServer).toBe(true);
  });

  it('answers 20 KB of headers with 431 and closes the connection', async () => {
    const answer = await rawRequest(
      runner.url,
      `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );

    expect(answer.status).toBe(431);
    expect(answer.closedByServer).toBe(true);
  });

  it('closes a CONNECT tunnel request without opening anything', async () => {
    const answer = await rawRequest(
      runner.url,
      'CONNECT localhost:22 HTTP/1.1\r\nhost: localhost:22\r\n\r\n',
    );

    expect(answer.closedByServer).toBe(true);
    expect(answer.rest).toBe('');
  });
});

describe('slow and vanishing clients', () => {
  it('closes a connection that never sends a request once the headers timeout passes', async () => {
    const answer = await rawRequest(runner.url, '', 10_000);

    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
  });

  it('answers headers trickling in a line at a time with 408 once the headers timeout passes', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send('GET / HTTP/1.1\r\nhost: x\r\n');
    const trickle = setInterval(() => exchange.send('x-slow: 1\r\n'), 100);
    const answer = await exchange.answer(10_000);
    clearInterval(trickle);

    expect(answer.status).toBe(408);
    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
  });

  it('answers a body dribbled a byte at a time with 408 once the request timeout passes, and stores nothing', async () => {
    const email = newAddress('dribble');
    const body = signupBody(email);
    const exchange = await openRaw(runner.url);
    exchange.send(postHead(body.length));
    let sent = 0;
    const dribble = setInterval(() => exchange.send(body.charAt(sent++)), 100);
    const answer = await exchange.answer(10_000);
    clearInterval(dribble);

    expect(answer.status).toBe(408);
    expect(answer.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
    expect(sent).toBeLessThan(body.length);
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);
  });

  it('never hands a body cut short by the client to the handler', async () => {
    const email = newAddress('cut');
    const body = signupBody(email);
    // The whole signup is there, but the request promised more: it is incomplete, so it is no request.
    const exchange = await openRaw(runner.url);
    exchange.send(`${postHead(body.length + 40)}${body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    exchange.socket.end();
    const answer = await exchange.answer();

    // Node's parser calls the cut-off message malformed (400), or the connection just ends.
    expect([0, 400]).toContain(answer.status);
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);
  });

  it('keeps at most one record for signups whose clients hung up or reset before the answer', async () => {
    const emails = Array.from({ length: 20 }, (_, index) => newAddress(`gone${index}`));
    await Promise.all(
      emails.map(async (email, index) => {
        const exchange = await openRaw(runner.url);
        const body = signupBody(email);
        exchange.send(`${postHead(body.length)}${body}`);
        if (index % 2 === 0) exchange.socket.destroy();
        else exchange.socket.resetAndDestroy();
      }),
    );
    // Whatever the runner made of them, a retry is either the first signup or a known one.
    const retries = await Promise.all(emails.map((email) => postJoin(runner.url, { email, language: 'nl' })));

    expect(
      retries.map((answer) => answer.status).filter((status) => status !== 201 && status !== 409),
    ).toEqual([]);
    const perAddress = recordsPerAddress(await storedEmails());
    expect(emails.map((email) => perAddress.get(email))).toEqual(emails.map(() => 1));
  });
});

describe('bodies too large', () => {
  it('answers a 1 MB Content-Length with 413 before a byte of the body is sent, and closes', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send(postHead(1024 * 1024));
    const answer = await exchange.answer();

    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.rest)).toEqual({ error: 'payload_too_large' });
    expect(answer.closedByServer).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(1_000);
  });

  it('answers a 1 MB body sent in full with 413 and closes the connection', async () => {
    const answer = await rawRequest(
      runner.url,
      Buffer.concat([Buffer.from(postHead(1024 * 1024)), Buffer.alloc(1024 * 1024, 'a')]),
    );

    expect(answer.status).toBe(413);
    expect(answer.closedByServer).toBe(true);
  });

  it('answers a chunked body past the cap with 413 while the client is still sending', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send(postHead('chunked'));
    const status = firstStatus(exchange);
    const chunk = 'a'.repeat(16 * 1024);
    for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) {
      exchange.send(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    }

    expect(await status).toBe(413);
    expect((await exchange.answer()).closedByServer).toBe(true);
  });

  it('lets the handler refuse a 2 KB body with its own 413, as API Gateway would pass it on', async () => {
    const body = JSON.stringify({
      email: newAddress('big'),
      language: 'nl',
      website: '',
      pad: 'x'.repeat(2_000),
    });
    const answer = await rawRequest(runner.url, `${postHead(body.length, 'connection: close\r\n')}${body}`);

    expect(answer.status).toBe(413);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.rest)).toEqual({ error: 'payload_too_large' });
  });
});

describe('chunked bodies', () => {
  it('takes a signup sent in small chunks', async () => {
    const body = signupBody(newAddress('chunked'));
    const chunks = body.match(/.{1,7}/g) ?? [];
    const framed = chunks.map((piece) => `${piece.length.toString(16)}\r\n${piece}\r\n`).join('');
    const answer = await rawRequest(
      runner.url,
      `${postHead('chunked', 'connection: close\r\n')}${framed}0\r\n\r\n`,
    );

    expect(answer.status).toBe(201);
    expect(answer.rest).toBe('{"status":"joined"}');
  });
});

describe('wrong methods', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'answers %s on /api/waitlist with 405, Allow: POST',
    async (method) => {
      const answer = await rawRequest(runner.url, httpRequest(method, '/api/waitlist'));

      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      expect(JSON.parse(answer.rest)).toEqual({ error: 'method_not_allowed' });
    },
  );

  it('answers HEAD on /api/waitlist with 405 and no body', async () => {
    const answer = await rawRequest(runner.url, httpRequest('HEAD', '/api/waitlist'));

    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expect(answer.rest).toBe('');
  });

  it.each([
    ['POST', '/'],
    ['PUT', '/en/'],
    ['DELETE', '/assets/index-Ab12Cd34.js'],
    ['PATCH', '/favicon.svg'],
    ['OPTIONS', '*'],
    ['TRACE', '/'],
  ])('answers %s %s with 405, Allow: GET, HEAD', async (method, path) => {
    const answer = await rawRequest(runner.url, httpRequest(method, path, { body: 'x' }));

    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
    expect(answer.headers['content-security-policy']).toBe(securityHeaders()['content-security-policy']);
  });
});

describe('path traversal', () => {
  const traversals = () => [
    '/../secret.txt',
    '/../../secret.txt',
    '/assets/../../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/.%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    '/%252e%252e/secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..%c0%afsecret.txt',
    '/secret.txt%00.html',
    '/index.html%00',
    '/%00/../secret.txt',
    '//secret.txt',
    site.secretFile,
    `/${site.secretFile}`,
    encodeURI(site.secretFile),
    'http://localhost/../secret.txt',
    '/leak.txt',
    '/outside/secret.txt',
  ];

  it('serves no file outside the built page, whatever the encoding, and answers 400 or 404', async () => {
    expect(readFileSync(site.secretFile, 'utf8')).toContain(SECRET_MARKER);
    const answers = await Promise.all(
      traversals().map(async (path) => ({
        path,
        answer: await rawRequest(runner.url, httpRequest('GET', path)),
      })),
    );

    for (const { path, answer } of answers) {
      expect([400, 404], path).toContain(answer.status);
      expect(answer.rest, path).not.toContain(SECRET_MARKER);
    }
    // The links and encoded dot segments that name existing files are turned away as unknown pages.
    const leak = answers.find(({ path }) => path === '/leak.txt')?.answer;
    expect(leak?.status).toBe(404);
    expect(leak?.rest).toContain('Pagina niet gevonden');
  });
});

describe('after the battery', () => {
  it('still takes a signup, and nothing crashed on the way', async () => {
    expect(await postJoin(runner.url, { email: newAddress('after'), language: 'en' })).toEqual({
      status: 201,
      body: { status: 'joined' },
    });
    expect((await fetch(runner.url)).status).toBe(200);
    expect(crashes).toEqual([]);
  });
});
