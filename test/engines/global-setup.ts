// The local runner for the journeys, as `npm start` runs it, the waitlist in memory, serving a copy of the
// built page taken now (a build meanwhile cannot change it under a run); the journeys read its outbox.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { IN_MEMORY } from '../../local/data-dir';

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
    outbox: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const repoRoot = resolve(import.meta.dirname, '../..');
  if (!existsSync(join(repoRoot, 'dist/index.html')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const page = mkdtempSync(join(tmpdir(), 'mandje-engines-dist-'));
  cpSync(join(repoRoot, 'dist'), page, { recursive: true });

  const runner = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/start-runner-process.ts', IN_MEMORY, page],
    // Every journey signs up from 127.0.0.1: the per-client limit has tests of its own.
    { cwd: repoRoot, env: { ...process.env, SIGNUP_RATE_LIMIT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [siteUrl = '', outbox = ''] = await new Promise<string[]>((ready, fail) => {
    let printed = '';
    runner.once('exit', (code) => fail(new Error(`the runner stopped (${code}) before it was ready`)));
    runner.stdout?.setEncoding('utf8');
    runner.stdout?.on('data', function untilReady(chunk: string) {
      printed += chunk;
      const found = /READY (\S+) (\S+)/.exec(printed);
      if (!found) return;
      // What it prints after that (each mail's link) is not the journeys' output.
      runner.stdout?.off('data', untilReady).resume();
      ready(found.slice(1));
    });
  });
  project.provide('siteUrl', siteUrl);
  project.provide('outbox', outbox);

  return async () => {
    const stopped = new Promise((done) => runner.once('exit', done));
    runner.kill('SIGTERM');
    await stopped;
    rmSync(page, { recursive: true, force: true });
    rmSync(outbox, { recursive: true, force: true });
  };
}
