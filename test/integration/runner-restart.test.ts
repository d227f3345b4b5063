import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

afterEach(killRunnerChildren);

describe('the local runner on disk', () => {
  it('still has the waitlist after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const email = `restart.${Date.now()}@example.nl`;

    const first = await startRunnerChild(dataDir);
    expect((await postJoin(first.url, { email, language: 'nl' })).status).toBe(201);
    await first.stop();

    const second = await startRunnerChild(dataDir);
    expect(await postJoin(second.url, { email: email.toUpperCase(), language: 'en' })).toEqual({
      status: 409,
      body: { error: 'already_registered' },
    });
    await second.stop();
  });

  it('turns away a second runner on the same data folder, by name', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const first = await startRunnerChild(dataDir);

    await expect(startRunnerChild(dataDir)).rejects.toThrow(
      `the data folder ${dataDir} is in use by another Mandje (process ${first.child.pid}; if none runs, delete ${join(dataDir, 'mandje-runner.pid')})`,
    );
    await first.stop();
  });
});
