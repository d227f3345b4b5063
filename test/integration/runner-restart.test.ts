import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postJoin } from './waitlist-api';

const repoRoot = resolve(import.meta.dirname, '../..');
const running: ChildProcess[] = [];

/** Starts a runner in its own process on `dataDir` and resolves with its URL once it listens. */
function startRunnerProcess(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/start-runner-process.ts', dataDir, distDir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.push(child);
  return new Promise((resolveStart, rejectStart) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = output.match(/READY (\S+)/);
      if (ready?.[1]) {
        resolveStart({
          url: ready[1],
          stop: () =>
            new Promise((resolveStop) => {
              child.once('exit', () => resolveStop());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.once('exit', (code) => rejectStart(new Error(`runner exited early (${code}): ${errors}`)));
  });
}

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the local runner on disk', () => {
  it('still has the waitlist after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const email = `restart.${Date.now()}@example.nl`;

    const first = await startRunnerProcess(dataDir);
    expect((await postJoin(first.url, { email, language: 'nl' })).status).toBe(201);
    await first.stop();

    const second = await startRunnerProcess(dataDir);
    expect(await postJoin(second.url, { email: email.toUpperCase(), language: 'en' })).toEqual({
      status: 409,
      body: { error: 'already_registered' },
    });
    await second.stop();
  });

  it('turns away a second runner on the same data folder, by name', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const first = await startRunnerProcess(dataDir);

    await expect(startRunnerProcess(dataDir)).rejects.toThrow(/in use by another Mandje/);
    await first.stop();
  });
});
