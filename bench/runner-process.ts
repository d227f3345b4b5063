import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { BENCH_TABLE_NAME } from './store';

const repoRoot = resolve(import.meta.dirname, '..');
const entry = join(repoRoot, 'bench/runner-process-entry.ts');

export interface RunnerProcess {
  /** The runner's base URL, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  pid: number;
  /** The process's resident memory now, in bytes. */
  rssBytes(): number;
  /** SIGTERM, then waits for it to exit; rejects unless it closed cleanly (exit code 0). */
  stop(): Promise<void>;
}

/** Resident set size of a process, from /proc on Linux, from `ps` elsewhere. */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = status.match(/^VmRSS:\s+(\d+)\s+kB$/m)?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // Not Linux: ask ps below.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

/** How long the runner may take to listen: its store starts first. */
const START_TIMEOUT_MS = 30_000;

/**
 * Starts the local runner (waitlist API: the real handler) in a child process on `dataDir`, which is a
 * folder or `:memory:`, serving the site in `siteDir` (left as it is), or none: an empty folder of its
 * own. The handler's one log line per request goes to /dev/null, as it would go to the Lambda runtime,
 * not through this process. The per-client limit is off: load comes from one address.
 */
export async function startRunnerProcess(dataDir: string, siteDir?: string): Promise<RunnerProcess> {
  const distDir = siteDir ?? mkdtempSync(join(tmpdir(), 'mandje-bench-dist-'));
  const child = spawn(process.execPath, ['--import', 'tsx', entry, dataDir, distDir], {
    cwd: repoRoot,
    env: { ...process.env, TABLE_NAME: BENCH_TABLE_NAME, SIGNUP_RATE_LIMIT: '0' },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Keep the end only: enough to say why it failed, never an unbounded buffer during a soak.
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  if (siteDir === undefined) exited.finally(() => rmSync(distDir, { recursive: true, force: true }));

  let ready: { url: string };
  try {
    ready = await readReadyLine(child, exited, () => stderr);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  const pid = child.pid as number;
  return {
    ...ready,
    pid,
    rssBytes: () => residentBytes(pid),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the runner exited with code ${code}: ${stderr}`);
    },
  };
}

function readReadyLine(
  child: ChildProcess,
  exited: Promise<number | null>,
  stderr: () => string,
): Promise<{ url: string }> {
  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(
      () =>
        rejectReady(new Error(`the runner did not listen within ${START_TIMEOUT_MS / 1000} s: ${stderr()}`)),
      START_TIMEOUT_MS,
    );
    exited.finally(() => clearTimeout(timer));
    let line = '';
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      line += chunk.toString();
      if (!line.includes('\n')) return;
      clearTimeout(timer);
      const ready = JSON.parse(line) as { url?: string };
      if (ready.url) resolveReady({ url: ready.url });
      else rejectReady(new Error(`the runner did not say where it listens: ${line.trim()}`));
    });
    exited.then((code) =>
      rejectReady(new Error(`the runner exited before it listened (${code}): ${stderr()}`)),
    );
  });
}
