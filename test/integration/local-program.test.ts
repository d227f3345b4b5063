/**
 * `npm start` is a local program: it listens on this machine only unless told otherwise, keeps its data
 * folder and its store's socket to its owner, holds the folder against a second runner, and is not kept
 * from starting by a lock its crashed predecessor left. Run as root, the other user is `nobody`.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_INDEX, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { runningStoreEndpoint, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreClient } from '../../local/local-store-client';
import { type LocalRunner, runnerUrl, startLocalRunner } from '../../local/runner';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { createSiteFixture } from './site-fixture';
import { storedEmails } from './store-records';
import { postJoin } from './waitlist-api';

const repoRoot = resolve(import.meta.dirname, '../..');
const runners: LocalRunner[] = [];
afterEach(async () => {
  killRunnerChildren();
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
});

async function startRunner(options: { host?: string; dataDir?: string } = {}): Promise<LocalRunner> {
  const runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: createSiteFixture().distDir,
    ...options,
  });
  runners.push(runner);
  return runner;
}

const CONNECT = `import errno, socket, sys
try:
    if len(sys.argv) > 2: socket.create_connection((sys.argv[1], int(sys.argv[2])), 5)
    else: socket.socket(socket.AF_UNIX).connect(sys.argv[1])
    print('connected')
except OSError as error:
    print(errno.errorcode[error.errno])`;

/**
 * 'connected', or the error code a connection to a socket `path` or to `host:port` met; as user nobody if
 * asked, with the system's Python (this Node may sit in a folder only its owner can enter).
 */
async function tryConnect(target: string, port?: number, asNobody = false): Promise<string> {
  const args = ['-c', CONNECT, target, ...(port === undefined ? [] : [String(port)])];
  const nobody = asNobody ? { uid: 65534, gid: 65534 } : {};
  const { stdout } = await promisify(execFile)('/usr/bin/python3', args, { ...nobody, cwd: '/' });
  return stdout.trim();
}

const permissions = (path: string) => statSync(path).mode & 0o777;
/** An IPv4 address of this machine that is not loopback, if it has one. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

describe('where the local runner listens', () => {
  it('listens on 127.0.0.1 only unless asked for every interface, and says so', async () => {
    const local = await startRunner();
    const open = await startRunner({ host: '0.0.0.0' });

    expect(local).toMatchObject({
      listensOnAllInterfaces: false,
      url: runnerUrl('127.0.0.1', local.address.port),
    });
    expect(open).toMatchObject({
      listensOnAllInterfaces: true,
      url: runnerUrl('localhost', open.address.port),
    });
    expect((await fetch(open.url)).status).toBe(200);
    expect([runnerUrl('localhost', 3000), runnerUrl('::1', 3000)]).toEqual([
      'http://localhost:3000/',
      'http://[::1]:3000/',
    ]);
    if (otherAddress) {
      expect(await tryConnect(otherAddress, local.address.port)).toBe('ECONNREFUSED');
      expect(await tryConnect(otherAddress, open.address.port)).toBe('connected');
    }
  });

  it('says in one sentence when the host is not an address of this machine, or empty', async () => {
    // 203.0.113.0/24 is set aside for documentation: no machine has it.
    await expect(startRunner({ host: '203.0.113.7' })).rejects.toThrow(
      /^203\.0\.113\.7 is not an address of this machine \(set HOST/,
    );
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'local/server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, HOST: '', PORT: '0', DATA_DIR: ':memory:' },
      timeout: 30_000,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(result).toMatchObject({
      code: 1,
      stderr:
        'Mandje could not start: HOST must be an address to listen on (127.0.0.1 unless set), not empty.\n',
    });
  });
});

describe('the data folder', () => {
  it('is its owner’s only after a start, even one that was open to everyone, and so are its files', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'mandje-private-')), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    await startRunner({ dataDir });
    expect(permissions(dataDir)).toBe(0o700);
    expect(permissions(join(dataDir, 'mandje-runner.pid'))).toBe(0o600);

    // The operator's tool opens the store there too; LevelDB's files are the owner's only.
    const toolDir = mkdtempSync(join(tmpdir(), 'mandje-private-'));
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'operator/waitlist-tool.ts', 'count'], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: toolDir },
    }).catch(() => {});
    const files = readdirSync(toolDir);
    expect(files).toContain('CURRENT');
    expect(files.filter((file) => permissions(join(toolDir, file)) & 0o077)).toEqual([]);
  });

  it('from an older Mandje, without an index the stack now has, is refused in one sentence, and let go', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-older-'));
    const store = await startLocalDynamoDB(dataDir);
    const client = localStoreClient(store.endpoint);
    await client.send(
      new CreateTableCommand({
        TableName: LOCAL_TABLE_NAME,
        KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    client.destroy();
    await store.close();

    await expect(startRunner({ dataDir })).rejects.toThrow(
      `the data folder ${dataDir}: its waitlist is from an older Mandje, without the ${TOKEN_INDEX.name} index (set DATA_DIR to a new folder)`,
    );
    expect(existsSync(join(dataDir, 'mandje-runner.pid'))).toBe(false);
  });

  it('is held against a second runner, by name, taken over from one killed with kill -9, its store on a socket of its owner’s only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const first = await startRunnerChild(dataDir);
    await expect(startRunnerChild(dataDir)).rejects.toThrow(
      `the data folder ${dataDir} is in use by another Mandje (process ${first.child.pid}; if none runs, delete ${join(dataDir, 'mandje-runner.pid')})`,
    );
    first.child.kill('SIGKILL');
    await first.exited;

    const runner = await startRunnerChild(dataDir);
    const email = `na.crash.${Date.now()}@example.nl`;
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);

    // Its store listens on a socket its owner reads the waitlist through, and user nobody cannot open.
    const socket = runningStoreEndpoint(dataDir) as string;
    expect(socket).toBe(join(dataDir, 'store.sock'));
    expect(permissions(socket)).toBe(0o600);
    expect(await tryConnect(socket, undefined, true)).toBe('EACCES');
    expect(await storedEmails(socket, LOCAL_TABLE_NAME)).toContain(email);
    await runner.stop();

    // In memory, the socket is in a temporary folder of the owner's only.
    const inMemory = await startLocalDynamoDB(':memory:');
    expect(permissions(dirname(inMemory.endpoint))).toBe(0o700);
    expect(await tryConnect(inMemory.endpoint, undefined, true)).toBe('EACCES');
    await inMemory.close();
  });
});
