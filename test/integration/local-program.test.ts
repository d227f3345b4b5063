import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_INDEX, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreClient } from '../../local/local-store-client';
import { type LocalRunner, runnerUrl, startLocalRunner } from '../../local/runner';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { createSiteFixture } from './site-fixture';
import { postJoin } from './waitlist-api';

/**
 * The one-machine runner is a local program: it listens on this machine only unless told otherwise, keeps
 * its data folder to its owner, and is not kept from starting by a lock its crashed predecessor left.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const LOCK_FILE = 'mandje-runner.pid';

const runners: LocalRunner[] = [];
const tempFolders: string[] = [];

afterEach(async () => {
  killRunnerChildren();
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
  for (const folder of tempFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  tempFolders.push(folder);
  return folder;
}

function siteDistDir(): string {
  const { distDir } = createSiteFixture();
  tempFolders.push(dirname(distDir));
  return distDir;
}

async function startRunner(options: { host?: string; dataDir?: string } = {}): Promise<LocalRunner> {
  const runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: siteDistDir(), ...options });
  runners.push(runner);
  return runner;
}

/** An IPv4 address of this machine that is not loopback, if it has one (a machine with no network has none). */
function nonLoopbackIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

/** Opens a TCP connection and closes it: 'connected', or the error code it failed with. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolveOutcome) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolveOutcome('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolveOutcome(error.code ?? error.message));
  });
}

const permissions = (path: string) => statSync(path).mode & 0o777;
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('where the local runner listens', () => {
  it('listens on 127.0.0.1 only when no host is given', async () => {
    const runner = await startRunner();

    expect(runner.address.address).toBe('127.0.0.1');
    expect(runner.listensOnAllInterfaces).toBe(false);
    expect(runner.url).toBe(`http://127.0.0.1:${runner.address.port}/`);
    expect((await fetch(runner.url)).status).toBe(200);
    const otherAddress = nonLoopbackIPv4();
    const machineHasNonLoopbackAddress = otherAddress !== undefined;
    if (machineHasNonLoopbackAddress) {
      expect(await tryConnect(otherAddress, runner.address.port)).toBe('ECONNREFUSED');
    }
  });

  it('listens on every interface when asked, says so, and gives a URL a person can open', async () => {
    const runner = await startRunner({ host: '0.0.0.0' });

    expect(runner.address.address).toBe('0.0.0.0');
    expect(runner.listensOnAllInterfaces).toBe(true);
    expect(runner.url).toBe(`http://localhost:${runner.address.port}/`);
    expect((await fetch(runner.url)).status).toBe(200);
    // The counterpart of the refusal above: the other address is reachable, so that refusal was the host's.
    const otherAddress = nonLoopbackIPv4();
    const machineHasNonLoopbackAddress = otherAddress !== undefined;
    if (machineHasNonLoopbackAddress) {
      expect(await tryConnect(otherAddress, runner.address.port)).toBe('connected');
    }
  });

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:3000/'],
    ['localhost', 'http://localhost:3000/'],
    ['::1', 'http://[::1]:3000/'],
    ['fd00::2', 'http://[fd00::2]:3000/'],
  ])('gives the host %s the URL %s', (host, url) => {
    expect(runnerUrl(host, 3000)).toBe(url);
    expect(new URL(url).port).toBe('3000');
  });

  it('says in one sentence when the host is not an address of this machine', async () => {
    // 203.0.113.0/24 is set aside for documentation: no machine has it.
    await expect(startRunner({ host: '203.0.113.7' })).rejects.toThrow(
      /^203\.0\.113\.7 is not an address of this machine \(set HOST/,
    );
  });

  it('refuses an empty HOST in one line, before it starts anything', async () => {
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'local/server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, HOST: '', PORT: '0', DATA_DIR: ':memory:' },
      // Only so a server that did start is not left running: the assertions below then fail.
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Mandje could not start: HOST must be an address to listen on (127.0.0.1 unless set), not empty.',
    ]);
  });
});

describe('the data folder', () => {
  it.each([
    ['a new folder', (dataDir: string) => dataDir],
    [
      'a folder that was open to everyone (0755)',
      (dataDir: string) => {
        mkdirSync(dataDir);
        chmodSync(dataDir, 0o755);
        return dataDir;
      },
    ],
  ])('is its owner’s only after a start, in %s, and so is the lock file', async (_, prepare) => {
    const dataDir = prepare(join(tempFolder('mandje-private-'), 'data'));

    await startRunner({ dataDir });

    expect(permissions(dataDir)).toBe(0o700);
    expect(permissions(join(dataDir, LOCK_FILE))).toBe(0o600);
  });

  it('holds only owner-only files after the waitlist tool opened the store there (LevelDB’s included)', async () => {
    const dataDir = tempFolder('mandje-private-');

    // No table yet, so the tool says so and exits 1, after it opened the store and LevelDB wrote its files.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'operator/waitlist-tool.ts', 'count'], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir },
    }).catch(() => {});

    const files = readdirSync(dataDir);
    expect(files).toContain('CURRENT');
    expect(files.map((file) => [file, permissions(join(dataDir, file)) & 0o077])).toEqual(
      files.map((file) => [file, 0]),
    );
  });
  it('from an older Mandje, without an index the stack now has, is refused in one sentence, and let go', async () => {
    const dataDir = tempFolder('mandje-older-');
    const store = await startLocalDynamoDB(dataDir);
    const client = localStoreClient(store.endpoint);
    const table = {
      TableName: LOCAL_TABLE_NAME,
      KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' as const }],
      AttributeDefinitions: [{ AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: 'S' as const }],
      BillingMode: 'PAY_PER_REQUEST' as const,
    };
    await client.send(new CreateTableCommand(table));
    client.destroy();
    await store.close();

    await expect(startRunner({ dataDir })).rejects.toThrow(
      `the data folder ${dataDir}: its waitlist is from an older Mandje, without the ${TOKEN_INDEX.name} index (set DATA_DIR to a new folder)`,
    );
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe('a lock left behind', () => {
  it('by a runner killed with kill -9 does not keep the next one from starting', async () => {
    const dataDir = tempFolder('mandje-data-');
    const crashed = await startRunnerChild(dataDir);
    crashed.child.kill('SIGKILL');
    await crashed.exited;

    const restarted = await startRunnerChild(dataDir);

    expect((await postJoin(restarted.url, { email: 'na.crash@example.nl', language: 'nl' })).status).toBe(
      201,
    );
    expect(readJson(join(dataDir, LOCK_FILE)).pid).toBe(restarted.child.pid);
    await restarted.stop();
  });
});
