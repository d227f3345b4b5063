import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const started: ChildProcess[] = [];

/** For afterEach: kills whatever runner a test started and left running (a failed assertion, say). */
export function killRunnerChildren(): void {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * A runner on `dataDir` in a process of its own (start-runner-process.ts, which stops on signals as
 * `npm start` does), once it listens.
 */
export async function startRunnerChild(dataDir: string, { env = {} }: { env?: Record<string, string> } = {}) {
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/start-runner-process.ts', dataDir, distDir],
    {
      cwd: resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    },
  );
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    child.emit('printed');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  /** Resolves once the process has printed a line matching `pattern` on stdout. */
  const printed = async (pattern: RegExp) => {
    while (!pattern.test(stdout)) await once(child, 'printed');
  };
  const url = await Promise.race([
    printed(/READY (\S+)/).then(() => stdout.match(/READY (\S+)/)?.[1] as string),
    exited.then((code) => {
      throw new Error(`runner exited early (${code}): ${stderr}`);
    }),
  ]);
  return {
    url,
    child,
    /** The exit code, once the process has exited. */
    exited,
    printed,
    /** Stops it as Ctrl-C would (SIGTERM) and resolves once it has exited. */
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
