/**
 * Starts the product for the journeys: the local runner (as `npm start` runs it) in a process of its own,
 * the waitlist in memory, on a free port, serving a copy of the built page taken now, so that a build
 * started meanwhile (another tier, another person in the same checkout) cannot change the page, or its
 * script hashes, under a run. The page is built first when dist/ is missing or older than its sources (in
 * `npm test` the e2e tier has just built it). The journeys read the runner's confirmation mails from its
 * outbox.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { IN_MEMORY } from '../../local/data-dir';

const repoRoot = resolve(import.meta.dirname, '../..');
const dist = join(repoRoot, 'dist');

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
    outbox: string;
  }
}

/** The newest change under a folder, in ms since the epoch. */
function newestChange(folder: string): number {
  return Math.max(
    0,
    ...readdirSync(folder, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

function buildIfStale(): void {
  const builtPage = join(dist, 'index.html');
  const sources = Math.max(
    newestChange(join(repoRoot, 'frontend')),
    newestChange(join(repoRoot, 'contract')),
  );
  if (existsSync(builtPage) && statSync(builtPage).mtimeMs >= sources) return;
  console.log('test/engines: dist/ is missing or older than the page’s sources: building the page …');
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'frontend/build.ts'], {
    cwd: repoRoot,
    // Vite builds for whatever NODE_ENV says, and a test runner says `test`: build as `npm run build` does.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the page’s build failed');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildIfStale();
  const page = mkdtempSync(join(tmpdir(), 'mandje-engines-dist-'));
  cpSync(dist, page, { recursive: true });

  const runner = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/start-runner-process.ts', IN_MEMORY, page],
    {
      cwd: repoRoot,
      // Every journey signs up from 127.0.0.1: the per-client limit has tests of its own.
      env: { ...process.env, SIGNUP_RATE_LIMIT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [siteUrl, outbox] = await new Promise<string[]>((ready, fail) => {
    let printed = '';
    runner.once('exit', (code) => fail(new Error(`the runner stopped (${code}) before it was ready`)));
    runner.stdout?.setEncoding('utf8');
    runner.stdout?.on('data', function untilReady(chunk: string) {
      printed += chunk;
      const [, url, mails] = /READY (\S+) (\S+)/.exec(printed) ?? [];
      if (!url || !mails) return;
      // What it prints after that (each mail's link) is not the journeys' output.
      runner.stdout?.off('data', untilReady).resume();
      ready([url, mails]);
    });
  });
  project.provide('siteUrl', siteUrl as string);
  project.provide('outbox', outbox as string);

  return async () => {
    const stopped = new Promise((done) => runner.once('exit', done));
    runner.kill('SIGTERM');
    await stopped;
    rmSync(page, { recursive: true, force: true });
    rmSync(outbox as string, { recursive: true, force: true });
  };
}
