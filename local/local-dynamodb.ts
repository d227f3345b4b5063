import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { MAILBOX_INDEX, TOKEN_INDEX, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { IN_MEMORY } from './data-dir';
import {
  LOCAL_MAIL_LIMIT_TABLE_NAME,
  LOCAL_TABLE_NAME,
  LOCAL_VISITOR_TABLE_NAME,
  localStoreClient,
} from './local-store-client';

const STORE_FILE = 'mandje-store.json';

export type LocalDynamoDB = { endpoint: string; close(): Promise<void> };

/** When `pid` started, as text to compare with another reading; undefined when unknown. */
export function processStartTime(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') {
      // Stat's field 22, after the name (which may hold spaces), with the boot id: ticks restart at boot.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      return ticks && `${bootId()}:${ticks}`;
    }
    // One language and time zone, so every process reads the same text.
    const env = { ...process.env, LC_ALL: 'C', TZ: 'UTC' };
    const options = { encoding: 'utf8', stdio: 'pipe', env } as const;
    return execFileSync('ps', ['-o', 'lstart=', '-p', `${pid}`], options).trim() || undefined;
  } catch {
    return undefined;
  }
}

// Without it (a restricted /proc), ticks alone still tell processes of one boot apart.
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'this-boot';
  }
}

/** The record of this process: an id is reused once its process is gone; with the start time it names one. */
const thisProcess = () => ({ pid: process.pid, startTime: processStartTime(process.pid) });

/** The live process a lock or store file names, with its start time when both are known; undefined if none. */
function runningOwner(file: string): { pid: number; endpoint?: unknown } | undefined {
  let owner: { pid: number; startTime?: unknown; endpoint?: unknown };
  try {
    owner = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(owner?.pid) || owner.pid <= 0) return undefined;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  const current = typeof owner.startTime === 'string' ? processStartTime(owner.pid) : undefined;
  return current === undefined || current === owner.startTime ? owner : undefined;
}

// LevelDB allows one process per folder and dynalite crashes rather than says so: a second runner is
// turned away here, by name. A lock of a process that is gone (or whose id is now another's) is taken over.
function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, 'mandje-runner.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify(thisProcess()), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = runningOwner(lockFile);
      if (owner)
        throw new Error(`the data folder ${dataDir} is in use by another Mandje (process ${owner.pid})`);
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`the data folder ${dataDir} could not be locked`);
}

export function runningStoreEndpoint(dataDir: string): string | undefined {
  const owner = runningOwner(join(dataDir, STORE_FILE));
  return owner && owner.pid !== process.pid && typeof owner.endpoint === 'string'
    ? owner.endpoint
    : undefined;
}

export type StoreProcessMessage =
  | { kind: 'ready' }
  | { kind: 'storage-fault'; code: string }
  | { kind: 'crashed'; errorName: string }
  | { kind: 'close' };

function privateTempSocket() {
  const folder = mkdtempSync(join(tmpdir(), 'mandje-store-'));
  return {
    socketPath: join(folder, 'store.sock'),
    cleanUp: () => rmSync(folder, { recursive: true, force: true }),
  };
}

const RESTART_DELAY_MS = { first: 100, max: 5_000 };

// The store on a data folder, in a process of its own that is started again, at growing intervals, on the
// same socket whenever it ends (its folder could not be written, or dynalite failed). Meanwhile the socket
// refuses connections, which the handlers answer "try again"; the store comes back without a restart.
async function startOnDisk(dataDir: string, socketPath: string): Promise<{ close(): Promise<void> }> {
  const closed = new AbortController();
  let said: { code: string; at: number } | undefined;
  /** Starts store-process.ts once; resolves when it listens, rejects with its last word if it ends first. */
  const start = () => {
    const script = resolve(import.meta.dirname, 'store-process.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, socketPath], {
      // tsx is found from the project's folder, wherever the runner was started.
      cwd: resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((resolveExit) => child.once('close', () => resolveExit()));
    let lastWord = 'it ended before it was ready';
    return new Promise<{ child: ChildProcess; exited: Promise<void> }>((resolveStart, rejectStart) => {
      child.on('message', (message: StoreProcessMessage) => {
        if (message.kind === 'ready') resolveStart({ child, exited });
        if (message.kind === 'crashed') {
          lastWord = `it failed with ${message.errorName}`;
          console.log(`The store failed (${message.errorName}); starting it again.`);
        }
        if (message.kind !== 'storage-fault') return;
        lastWord = `its data folder gave ${message.code}`;
        // Said once, and again a minute later while it lasts: not at every attempt.
        if (said?.code === message.code && Date.now() - said.at <= 60_000) return;
        said = { code: message.code, at: Date.now() };
        console.log(
          `The store could not write to ${dataDir} (${message.code}): signups are answered "try again" until it can.`,
        );
      });
      child.once('error', (error) => {
        lastWord = `it could not be started (${(error as NodeJS.ErrnoException).code ?? error.name})`;
      });
      exited.then(() => rejectStart(new Error(lastWord)));
    });
  };
  let current: Awaited<ReturnType<typeof start>> | undefined;

  // A first start keeps trying for a while: the store process of a runner just killed may still be closing.
  const deadline = Date.now() + 10_000;
  for (let wait = RESTART_DELAY_MS.first; !current; wait = Math.min(wait * 2, RESTART_DELAY_MS.max)) {
    current = await start().catch(async (error: Error) => {
      if (Date.now() > deadline) throw new Error(`the store in ${dataDir} could not start: ${error.message}`);
      await delay(wait);
      return undefined;
    });
  }

  // Sooner after a store that ran a while, later while each ends soon after it started (a disk still full).
  const watching = (async () => {
    let wait = RESTART_DELAY_MS.first;
    let startedAt = Date.now();
    while (!closed.signal.aborted) {
      await current?.exited;
      current = undefined;
      wait = Date.now() - startedAt > RESTART_DELAY_MS.max ? RESTART_DELAY_MS.first : wait;
      await delay(wait, undefined, { signal: closed.signal }).catch(() => {});
      wait = Math.min(wait * 2, RESTART_DELAY_MS.max);
      if (closed.signal.aborted) return;
      startedAt = Date.now();
      current = await start().catch(() => undefined);
    }
  })();

  const stop = async (running: typeof current) => {
    // To a process already gone the send fails into the callback: nothing to do.
    running?.child.send({ kind: 'close' } satisfies StoreProcessMessage, () => {});
    await running?.exited;
  };
  return {
    async close() {
      closed.abort();
      await stop(current);
      await watching;
      // One started while this was closing.
      await stop(current);
    },
  };
}

/** dynalite on `dataDir` (or `:memory:`), on a Unix socket only this user may open, never a network port. */
export async function startLocalDynamoDB(dataDir: string): Promise<LocalDynamoDB> {
  if (dataDir === IN_MEMORY) {
    // In this process: nothing is written, so no disk can fail it.
    const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => Server;
    const { socketPath, cleanUp } = privateTempSocket();
    const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    // The socket's folder is this user's only.
    await new Promise<void>((listening, fail) => server.once('error', fail).listen(socketPath, listening));
    return { endpoint: socketPath, close: () => promisify(server.close.bind(server))().finally(cleanUp) };
  }
  // Only the data folder itself is made private (it holds email addresses), and only when this user owns it.
  try {
    mkdirSync(dirname(dataDir), { recursive: true });
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
    await access(dataDir, constants.W_OK);
  } catch {
    throw new Error(`the data folder ${dataDir} cannot be written (set DATA_DIR to another folder)`);
  }
  const unlock = lockDataDir(dataDir);
  // In the data folder, or in a private temporary one where that path is too long for a socket (about 100
  // bytes: 108 on Linux, 104 on macOS, the final NUL included).
  const inDataDir = join(dataDir, 'store.sock');
  const { socketPath, cleanUp } =
    inDataDir.length > 100
      ? privateTempSocket()
      : { socketPath: inDataDir, cleanUp: () => rmSync(inDataDir, { force: true }) };
  const storeFile = join(dataDir, STORE_FILE);
  let store: Awaited<ReturnType<typeof startOnDisk>> | undefined;
  const close = () =>
    Promise.resolve(store?.close()).finally(() => {
      rmSync(storeFile, { force: true });
      cleanUp();
      unlock();
    });
  try {
    store = await startOnDisk(dataDir, socketPath);
    // Written whole (temporary file, then rename), so a reader never sees half of it.
    const partial = `${storeFile}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify({ ...thisProcess(), endpoint: socketPath }), { mode: 0o600 });
    renameSync(partial, storeFile);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint: socketPath, close };
}

export class OlderFolderError extends Error {}

type Key = { name: string; type: 'S' };

/** Creates the tables as the stack does, unless there; throws if the store does not answer within seconds. */
export async function ensureWaitlistTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<void> {
  const client = localStoreClient(endpoint, { maxAttempts: 1, requestHandler: { requestTimeout: 5_000 } });
  try {
    await createTableUnlessPresent(client, tableName, WAITLIST_TABLE_KEY, [TOKEN_INDEX, MAILBOX_INDEX]);
    await createTableUnlessPresent(client, LOCAL_MAIL_LIMIT_TABLE_NAME, MAIL_LIMIT_TABLE_KEY);
    await createTableUnlessPresent(client, LOCAL_VISITOR_TABLE_NAME, VISITOR_TABLE_KEY);
  } finally {
    client.destroy();
  }
}

// A table from a data folder made before one of its indexes existed is refused in one sentence: dynalite
// cannot add an index, and the waitlist is not yet live anywhere, so such a folder holds only test signups.
async function createTableUnlessPresent(
  client: DynamoDBClient,
  TableName: string,
  key: Key,
  indexes: { name: string; key: Key; projection?: readonly string[] }[] = [],
): Promise<void> {
  const created = client.send(
    new CreateTableCommand({
      TableName,
      KeySchema: [{ AttributeName: key.name, KeyType: 'HASH' }],
      AttributeDefinitions: [key, ...indexes.map((index) => index.key)].map(({ name, type }) => ({
        AttributeName: name,
        AttributeType: type,
      })),
      BillingMode: 'PAY_PER_REQUEST',
      ...(indexes.length > 0 && {
        GlobalSecondaryIndexes: indexes.map(({ name, key, projection }) => ({
          IndexName: name,
          KeySchema: [{ AttributeName: key.name, KeyType: 'HASH' }],
          Projection: projection
            ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection] }
            : { ProjectionType: 'KEYS_ONLY' },
        })),
      }),
    }),
  );
  await created.catch((error) => {
    if (!(error instanceof ResourceInUseException)) throw error;
  });
  // dynalite answers a put to a CREATING table as if there were none, and the SDK's waiter polls every 20 s
  // at the least: so this polls by hand, for a few seconds at most.
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    const present = Table?.GlobalSecondaryIndexes ?? [];
    const missing = indexes.find(({ name }) => !present.some((index) => index.IndexName === name));
    if (missing)
      throw new OlderFolderError(`its waitlist is from an older Mandje, without the ${missing.name} index`);
    if (Table?.TableStatus === 'ACTIVE' && present.every((index) => index.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`the table ${TableName} did not become active`);
    await delay(20);
  }
}
