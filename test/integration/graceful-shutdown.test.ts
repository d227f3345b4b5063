import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRaw } from './raw-http';
import { type RunnerChild, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

const started: RunnerChild[] = [];

afterEach(() => {
  for (const { child } of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function startRunner(dataDir: string): Promise<RunnerChild> {
  const runner = await startRunnerChild(dataDir);
  started.push(runner);
  return runner;
}

/** `connectedAt`: when the TCP connection was set up (performance.now()), if it was. */
type Outcome = { email: string; connectedAt?: number } & (
  | { status: number; body: string }
  | { error: string }
);

/** One signup on a connection of its own; a connection refused or cut is an outcome too. */
function signupOnNewConnection(url: string, email: string): Promise<Outcome> {
  const body = JSON.stringify({ email, language: 'nl' });
  let connectedAt: number | undefined;
  return new Promise((resolve) => {
    const outgoing = request(
      new URL('/api/waitlist', url),
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({ email, connectedAt, status: response.statusCode ?? 0, body: text }),
        );
        response.on('error', (error) => resolve({ email, connectedAt, error: String(error) }));
      },
    );
    outgoing.once('socket', (socket) =>
      socket.once('connect', () => {
        connectedAt = performance.now();
      }),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ email, connectedAt, error: error.code ?? String(error) }),
    );
    outgoing.end(body);
  });
}

/** A signup whose body arrives in two halves: the second only when `finish` is called. */
async function slowSignup(url: string, email: string) {
  const body = JSON.stringify({ email, language: 'en' });
  const exchange = await openRaw(url);
  exchange.send(
    `POST /api/waitlist HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
  );
  exchange.send(body.slice(0, 10));
  return {
    email,
    finish: async () => {
      exchange.send(body.slice(10));
      return exchange.answer(10_000);
    },
  };
}

function connectionRefused(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('the runner stopped with SIGTERM under load', () => {
  it('answers every request it took in full, refuses new ones, exits 0 and keeps every acknowledged signup', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-shutdown-'));
    const runId = Date.now();
    const runner = await startRunner(dataDir);
    expect((await postJoin(runner.url, { email: `warm.${runId}@example.nl`, language: 'nl' })).status).toBe(
      201,
    );

    // Requests in progress when the signal arrives: bodies half sent, and a stream of quick signups.
    const slow = await Promise.all(
      Array.from({ length: 6 }, (_, index) => slowSignup(runner.url, `slow${index}.${runId}@example.nl`)),
    );
    const quick: Promise<Outcome>[] = [];
    let sending = true;
    const sendQuickly = async () => {
      while (sending) {
        quick.push(signupOnNewConnection(runner.url, `quick${quick.length}.${runId}@example.nl`));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const quickSender = sendQuickly();
    // Enough signups under way before the signal however busy the machine: 30 sent, the last 200 ms ago.
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await pause(600);
    while (quick.length < 30) await pause(20);
    await pause(200);

    const signalledAt = performance.now();
    runner.child.kill('SIGTERM');
    await runner.printed(/stopping/);
    expect(await connectionRefused(runner.url)).toBe(true);
    const slowAnswers = await Promise.all(slow.map((signup) => signup.finish()));
    sending = false;
    await quickSender;
    const quickOutcomes = await Promise.all(quick);
    const exitCode = await runner.exited;

    expect(exitCode).toBe(0);
    // Every half-sent body was waited for and answered in full.
    for (const answer of slowAnswers) {
      expect(answer.status).toBe(201);
      expect(answer.rest).toBe('{"status":"joined"}');
    }
    // Every quick signup that got an answer got a whole one, and every one connected well before the
    // signal got an answer. (Connections still in the kernel's queue when the port closes are reset.)
    const answered = quickOutcomes.filter((outcome) => 'status' in outcome);
    const turnedAway = quickOutcomes.filter((outcome) => 'error' in outcome);
    for (const outcome of answered)
      expect(outcome).toMatchObject({ status: 201, body: '{"status":"joined"}' });
    const settledBeforeSignal = quickOutcomes.filter(
      ({ connectedAt }) => connectedAt && connectedAt < signalledAt - 100,
    );
    expect(settledBeforeSignal.length).toBeGreaterThan(20);
    expect(settledBeforeSignal.filter((outcome) => 'error' in outcome)).toEqual([]);
    expect(turnedAway.length).toBeGreaterThan(0);
    expect(
      turnedAway.filter((outcome) => 'error' in outcome && !/ECONNREFUSED|ECONNRESET/.test(outcome.error)),
    ).toEqual([]);

    // Started again on the same folder, it knows every address it acknowledged.
    const restarted = await startRunner(dataDir);
    const acknowledged = [...slow.map((signup) => signup.email), ...answered.map((outcome) => outcome.email)];
    const again = await Promise.all(
      acknowledged.map((email) => postJoin(restarted.url, { email, language: 'nl' })),
    );
    expect(again.map((answer) => answer.status)).toEqual(acknowledged.map(() => 409));
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });

  it('stops at once on a second signal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-shutdown-'));
    const runner = await startRunner(dataDir);
    // A request in progress that would hold the first stop for its whole grace period.
    const held = await slowSignup(runner.url, `held.${Date.now()}@example.nl`);

    runner.child.kill('SIGTERM');
    await runner.printed(/stopping/);
    const secondSignalAt = performance.now();
    runner.child.kill('SIGTERM');

    expect(await runner.exited).toBe(1);
    expect(performance.now() - secondSignalAt).toBeLessThan(2_000);
    expect((await held.finish()).status).not.toBe(201);
  });
});
