import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openRaw, plainRequest } from './raw-http';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

afterEach(killRunnerChildren);

/** A signup whose body arrives in two halves: the second only when `finish` is called. */
async function slowSignup(url: string, email: string) {
  const body = JSON.stringify({ email, language: 'en' });
  const exchange = await openRaw(url);
  exchange.send(
    `POST /api/waitlist HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
  );
  exchange.send(body.slice(0, 10));
  const finish = () => {
    exchange.send(body.slice(10));
    return exchange.answer(10_000);
  };
  return { email, finish };
}

describe('the runner stopped with SIGTERM under load', () => {
  it('answers every request it took in full, refuses new ones and exits 0 (soak: what it acknowledged is kept)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-shutdown-'));
    const runId = Date.now();
    const runner = await startRunnerChild(dataDir);
    expect((await postJoin(runner.url, { email: `warm.${runId}@example.nl`, language: 'nl' })).status).toBe(
      201,
    );

    // Requests in progress when the signal arrives: bodies half sent, and quick signups, a connection each.
    const slow = await Promise.all(
      Array.from({ length: 6 }, (_, index) => slowSignup(runner.url, `slow${index}.${runId}@example.nl`)),
    );
    const quick: Promise<{ startedAt: number; status?: number; body?: string; error?: string }>[] = [];
    let sending = true;
    const quickSender = (async () => {
      while (sending) {
        const email = `quick${quick.length}.${runId}@example.nl`;
        const startedAt = performance.now();
        const body = JSON.stringify({ email, language: 'nl' });
        const headers = { 'content-type': 'application/json' };
        quick.push(
          plainRequest(new URL('/api/waitlist', runner.url).href, { method: 'POST', headers, body }).then(
            (answer) => ({ startedAt, status: answer.status, body: answer.body.toString() }),
            (error: NodeJS.ErrnoException) => ({ startedAt, error: error.code ?? String(error) }),
          ),
        );
        await pause(5);
      }
    })();
    // Enough signups under way before the signal however busy the machine: 30 sent, the last 200 ms ago.
    await pause(600);
    while (quick.length < 30) await pause(20);
    await pause(200);

    const signalledAt = performance.now();
    runner.child.kill('SIGTERM');
    await runner.printed(/stopping/);
    const late = postJoin(runner.url, { email: `late.${runId}@example.nl`, language: 'nl' });
    expect(await late.catch((error) => error.cause?.code)).toBe('ECONNREFUSED');
    const slowAnswers = await Promise.all(slow.map((signup) => signup.finish()));
    sending = false;
    await quickSender;
    const outcomes = await Promise.all(quick);
    expect(await runner.exited).toBe(0);

    // Every half-sent body was waited for and answered in full.
    for (const answer of slowAnswers)
      expect(answer).toMatchObject({ status: 201, rest: '{"status":"joined"}' });
    // Every quick signup answered got a whole answer, and every one sent well before the signal got one.
    // (Connections still in the kernel's queue when the port closes are refused or reset.)
    const answered = outcomes.filter((outcome) => outcome.status);
    for (const outcome of answered)
      expect(outcome).toMatchObject({ status: 201, body: '{"status":"joined"}' });
    const sentBefore = outcomes.filter(({ startedAt }) => startedAt < signalledAt - 200);
    expect(sentBefore.length).toBeGreaterThan(20);
    expect(sentBefore.filter((outcome) => outcome.error)).toEqual([]);
    expect(
      outcomes.filter((outcome) => outcome.error && !/ECONNREFUSED|ECONNRESET/.test(outcome.error)),
    ).toEqual([]);
  });

  it('stops at once on a second signal', async () => {
    const runner = await startRunnerChild(mkdtempSync(join(tmpdir(), 'mandje-shutdown-')));
    // A request in progress that would hold the first stop for its whole grace period.
    const held = await slowSignup(runner.url, `held.${Date.now()}@example.nl`);

    runner.child.kill('SIGTERM');
    await runner.printed(/stopping/);
    runner.child.kill('SIGTERM');

    expect(await runner.exited).toBe(1);
    expect((await held.finish()).status).not.toBe(201);
  });
});
