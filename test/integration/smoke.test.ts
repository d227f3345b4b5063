import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { createSiteFixture } from './site-fixture';
import { storedEmails } from './store-records';

/**
 * `npm run waitlist -- smoke <url>` against the runner, as the founder runs it after a deploy: the tool reads
 * the store the runner uses (its data folder), the runner reaches it through a proxy that can break it.
 */
let dataDir: string;
let store: LocalDynamoDB;
let proxy: FaultProxy;
let runner: LocalRunner;
let siteRoot: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mandje-smoke-'));
  store = await startLocalDynamoDB(dataDir);
  proxy = await startFaultProxy(store.endpoint);
  const { distDir } = createSiteFixture();
  siteRoot = dirname(distDir);
  runner = await startLocalRunner({ port: 0, storeEndpoint: proxy.endpoint, distDir });
});

afterAll(async () => {
  await runner?.close();
  await proxy?.close();
  await store?.close();
  for (const folder of [dataDir, siteRoot]) if (folder) rmSync(folder, { recursive: true, force: true });
});

async function smoke(): Promise<{ code: number; lines: string[] }> {
  const answer = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'operator/waitlist-tool.ts', 'smoke', runner.url, '--data-dir', dataDir],
    { cwd: resolve(import.meta.dirname, '../..') },
  ).catch((error: { code: number; stdout: string }) => ({ ...error, stdout: error.stdout }));
  return { code: 'code' in answer ? answer.code : 0, lines: answer.stdout.trim().split('\n') };
}

describe('waitlist smoke on the runner', () => {
  it('passes every check, one line each, and leaves the table as it found it', async () => {
    const { code, lines } = await smoke();

    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'ok    page /',
      'ok    page /en/',
      'ok    not found',
      'ok    signup',
      'ok    mail',
      'ok    duplicate',
      'ok    cross-site',
      'ok    visit',
      'ok    leave',
      'All 9 checks passed.',
    ]);
    expect(code).toBe(0);
    // No record, no one counted as having left, no visit counted.
    expect(await storedEmails(store.endpoint)).toEqual([]);
  });

  it('fails, exiting 1, when the API cannot reach its store', async () => {
    proxy.setMode('down');

    const { code, lines } = await smoke();

    expect(lines).toContainEqual(expect.stringMatching(/^FAIL {2}signup: answered 503/));
    expect(lines.at(-1)).toMatch(/checks failed\.$/);
    expect(code).toBe(1);
  });
});
