import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '../..');

export interface RunnerChild {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Resolves once the process has printed a line matching `pattern` on stdout. */
  printed(pattern: RegExp): Promise<void>;
  /** Everything it printed so far, stdout then the end of stderr. */
  output(): string;
  /** Stops it as Ctrl-C would (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

const started: ChildProcess[] = [];

/** For afterEach: kills whatever runner a test started and left running (a failed assertion, say). */
export function killRunnerChildren(): void {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * Starts a runner on `dataDir` in a process of its own (test/integration/start-runner-process.ts, which
 * stops on signals as `npm start` does) and resolves once it listens.
 */
export function startRunnerChild(
  dataDir: string,
  { env = {} }: { env?: Record<string, string> } = {},
): Promise<RunnerChild> {
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/start-runner-process.ts', dataDir, distDir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  started.push(child);
  let stdout = '';
  let stderr = '';
  const waiting: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wait of waiting.filter(({ pattern }) => pattern.test(stdout))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const printed = (pattern: RegExp) =>
    pattern.test(stdout)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ pattern, resolve }));

  return new Promise((resolveStart, rejectStart) => {
    printed(/READY (\S+)/).then(() => {
      const url = stdout.match(/READY (\S+)/)?.[1] as string;
      const stop = async () => {
        child.kill('SIGTERM');
        await exited;
      };
      resolveStart({ url, child, exited, printed, stop, output: () => `${stdout}\n${stderr}` });
    });
    exited.then((code) => rejectStart(new Error(`runner exited early (${code}): ${stderr}`)));
  });
}
