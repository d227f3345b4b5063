/**
 * `npm run waitlist -- preflight` as the operator runs it, on a machine with no AWS credentials: one line
 * that says so, exit 1, no stack trace. The SDK's own credential chain runs, with nothing to find (no
 * variables, an empty home, the instance metadata service off), so no network is needed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../../..');
const home = mkdtempSync(join(tmpdir(), 'mandje-no-credentials-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

it('says in one line that there are no AWS credentials, and exits 1', { timeout: 30_000 }, async () => {
  const outcome = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'operator/waitlist-tool.ts', 'preflight', '--region', 'eu-west-1'],
    {
      cwd: repoRoot,
      // Nothing of this machine's AWS set-up: only what Node needs to start.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        AWS_CONFIG_FILE: join(home, 'config'),
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        AWS_EC2_METADATA_DISABLED: 'true',
      },
    },
  ).then(
    () => ({ code: 0, stdout: '', stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

  expect(outcome.stderr).toBe(
    'waitlist: no AWS credentials found (use aws configure, AWS_PROFILE or the AWS_* environment variables)\n',
  );
  expect(outcome.stdout).toBe('');
  expect(outcome.code).toBe(1);
});
