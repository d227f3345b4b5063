import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { LOCAL_TABLE_NAME } from '../local/local-store-client';

const repoRoot = resolve(import.meta.dirname, '..');

/**
 * The local runner (the real handler) in a child process on `dataDir` (a folder or `:memory:`), serving
 * `siteDir` or an empty folder of its own. Its logs go nowhere, as on Lambda; the per-client limit is off,
 * as load comes from one address. `heapMb` caps V8's old space, so memory kept per request shows.
 */
export async function startRunnerProcess(dataDir: string, siteDir?: string, heapMb?: number) {
  const distDir = siteDir ?? mkdtempSync(join(tmpdir(), 'mandje-bench-dist-'));
  const heapCap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  const child = spawn(
    process.execPath,
    [...heapCap, '--import', 'tsx', join(repoRoot, 'bench/runner-process-entry.ts'), dataDir, distDir],
    {
      cwd: repoRoot,
      env: { ...process.env, TABLE_NAME: LOCAL_TABLE_NAME, SIGNUP_RATE_LIMIT: '0' },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // The end only: enough to say why it failed, never an unbounded buffer during a soak.
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  if (siteDir === undefined) exited.finally(() => rmSync(distDir, { recursive: true, force: true }));
  const ready = createInterface({ input: child.stdio[3] as Readable });
  const url = await Promise.race([
    once(ready, 'line', { signal: AbortSignal.timeout(30_000) }).then(
      ([line]) => JSON.parse(line).url as string,
    ),
    exited.then((code) => {
      throw new Error(`the runner exited before it listened (${code}): ${stderr}`);
    }),
  ]).catch((error: Error) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error.name === 'AbortError' ? new Error(`the runner did not listen within 30 s: ${stderr}`) : error;
  });
  return {
    url,
    rssBytes: () => {
      const status = `/proc/${child.pid}/status`;
      const kib = existsSync(status)
        ? readFileSync(status, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB$/m)?.[1]
        : execFileSync('ps', ['-o', 'rss=', '-p', String(child.pid)], { encoding: 'utf8' });
      return Number(kib ?? 0) * 1024;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the runner exited with code ${code}: ${stderr}`);
    },
  };
}
