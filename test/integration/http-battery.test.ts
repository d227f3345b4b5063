/**
 * Hostile HTTP against the runner, on raw sockets: what browsers never send, what attackers and broken
 * clients do. Each gets a 4xx or a closed connection, never a crash, and the runner still takes signups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../local/lambda-http-adapter';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { httpRequest, openRaw, rawRequest } from './raw-http';
import { createSiteFixture } from './site-fixture';
import { recordsPerAddress, storedEmails } from './store-records';
import { postJoin } from './waitlist-api';

let runner: LocalRunner;
const crashes: unknown[] = [];
const recordCrash = (error: unknown) => crashes.push(error);
/** Short, so that the slow-client tests take seconds; the defaults are the same mechanism. */
const TIMEOUT_MS = 1_000;

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
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: createSiteFixture().distDir,
    headersTimeoutMs: TIMEOUT_MS,
    requestTimeoutMs: 2 * TIMEOUT_MS,
  });
});

afterAll(async () => {
  await runner?.close();
  process.off('unhandledRejection', recordCrash);
  process.off('uncaughtException', recordCrash);
});

describe('malformed and slow requests', () => {
  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400],
    ['a NUL byte in the path', 'GET /\x00 HTTP/1.1\r\nhost: x\r\n\r\n', 400],
    ['HTTP/1.1 without a host', 'GET / HTTP/1.1\r\n\r\n', 400],
    ['two different Content-Lengths', `${postHead(5, 'content-length: 6\r\n')}hello!`, 400],
    ['Content-Length and chunked together', `${postHead(5, 'transfer-encoding: chunked\r\n')}0\r\n\r\n`, 400],
    ['20 KB of headers', `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers %s with its 4xx and closes the connection', async (_, bytes, status) => {
    expect(await rawRequest(runner.url, bytes)).toMatchObject({ status, closedByServer: true });
  });

  it('answers headers trickling in with 408 once the headers timeout passes', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send('GET / HTTP/1.1\r\nhost: x\r\n');
    const trickle = setInterval(() => exchange.send('x-slow: 1\r\n'), 100);
    const answer = await exchange.answer(10_000);
    clearInterval(trickle);
    expect(answer).toMatchObject({ status: 408, closedByServer: true });
  });

  it('answers a body dribbled a byte at a time with 408, and never hands a cut-off body to the handler', async () => {
    const [dribbled, cut] = [newAddress('dribble'), newAddress('cut')];
    const exchange = await openRaw(runner.url);
    exchange.send(postHead(signupBody(dribbled).length));
    let sent = 0;
    const dribble = setInterval(() => exchange.send(signupBody(dribbled).charAt(sent++)), 100);
    expect((await exchange.answer(10_000)).status).toBe(408);
    clearInterval(dribble);
    // The whole signup is there, but the request promised more: it is incomplete, so it is no request.
    const short = await openRaw(runner.url);
    short.send(`${postHead(signupBody(cut).length + 40)}${signupBody(cut)}`);
    short.socket.end();
    expect([0, 400]).toContain((await short.answer()).status);

    for (const email of [dribbled, cut])
      expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);
  });

  it('keeps at most one record for signups whose clients hung up or reset before the answer', async () => {
    const emails = Array.from({ length: 20 }, (_, index) => newAddress(`gone${index}`));
    await Promise.all(
      emails.map(async (email, index) => {
        const exchange = await openRaw(runner.url);
        exchange.send(`${postHead(signupBody(email).length)}${signupBody(email)}`);
        if (index % 2 === 0) exchange.socket.destroy();
        else exchange.socket.resetAndDestroy();
      }),
    );
    const retries = await Promise.all(emails.map((email) => postJoin(runner.url, { email, language: 'nl' })));
    expect(retries.filter(({ status }) => status !== 201 && status !== 409)).toEqual([]);
    const perAddress = recordsPerAddress(await storedEmails());
    expect(emails.map((email) => perAddress.get(email))).toEqual(emails.map(() => 1));
  });
});

describe('one address sent many times at once', () => {
  it('is stored once: one 201, and 409 already registered for the other 99', async () => {
    const email = newAddress('race');
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => postJoin(runner.url, { email, language: 'nl' })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 99 }, () => 409)]);
    expect(answers.find((answer) => answer.status === 409)?.body).toEqual({ error: 'already_registered' });
    expect(recordsPerAddress(await storedEmails()).get(email)).toBe(1);
  });
});

describe('bodies', () => {
  it('answers a 1 MB Content-Length with 413 before a byte of the body is sent, and closes', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send(postHead(1024 * 1024));
    const answer = await exchange.answer();
    expect(answer).toMatchObject({ status: 413, closedByServer: true, headers: { connection: 'close' } });
    expect(JSON.parse(answer.rest)).toEqual({ error: 'payload_too_large' });
  });

  it('answers a chunked body past the cap with 413 while the client is still sending', async () => {
    const exchange = await openRaw(runner.url);
    exchange.send(postHead('chunked'));
    const chunk = 'a'.repeat(16 * 1024);
    for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length)
      exchange.send(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    expect(await exchange.status).toBe(413);
    expect((await exchange.answer()).closedByServer).toBe(true);
  });

  it('refuses two Content-Types with 415, joined with a comma as API Gateway joins them, storing nothing', async () => {
    const email = newAddress('two-types');
    const body = signupBody(email);
    const answer = await rawRequest(
      runner.url,
      `${postHead(body.length, 'content-type: text/plain\r\nconnection: close\r\n')}${body}`,
    );
    expect(answer.status).toBe(415);
    expect(await storedEmails()).not.toContain(email);
  });

  it.each([
    ['HEAD', '/api/waitlist', 'POST'],
    ['POST', '/', 'GET, HEAD'],
    ['OPTIONS', '*', 'GET, HEAD'],
  ])('answers %s %s with 405, Allow: %s', async (method, path, allow) => {
    const answer = await rawRequest(runner.url, httpRequest(method, path, 'x'));
    expect(answer).toMatchObject({ status: 405, headers: { allow } });
  });

  it('still takes a signup after all that, sent in small chunks, and nothing crashed on the way', async () => {
    const framed = (signupBody(newAddress('chunked')).match(/.{1,7}/g) ?? [])
      .map((piece) => `${piece.length.toString(16)}\r\n${piece}\r\n`)
      .join('');
    const answer = await rawRequest(
      runner.url,
      `${postHead('chunked', 'connection: close\r\n')}${framed}0\r\n\r\n`,
    );
    expect(answer).toMatchObject({ status: 201, rest: '{"status":"joined"}' });
    expect(crashes).toEqual([]);
  });
});
