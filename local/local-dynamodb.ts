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
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  type TableDescription,
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
import { listenOnPrivateSocket, MAX_SOCKET_PATH_LENGTH } from './private-socket';

export { LOCAL_TABLE_NAME };

/** Where a running store says how to reach it, for the operator's tools (see runningStoreEndpoint). */
const STORE_FILE = 'mandje-store.json';

export interface LocalDynamoDB {
  /** The store's address: its socket's path (local-store-client.ts). */
  endpoint: string;
  close(): Promise<void>;
}

/** Claims the data folder for one runner, as JSON: see lockDataDir. */
const LOCK_FILE = 'mandje-runner.pid';

/** The waitlist holds email addresses: the folder and the files the runner writes are its owner's only. */
const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes the data folder, private to its owner, and fails with one clear sentence when it cannot be
 * written. Only the data folder itself is made private: folders above it are the user's to arrange.
 */
async function prepareDataDir(dataDir: string): Promise<void> {
  try {
    mkdirSync(dirname(dataDir), { recursive: true });
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    makePrivateIfOwned(dataDir);
    await access(dataDir, constants.W_OK);
  } catch {
    throw new Error(`the data folder ${dataDir} cannot be written (set DATA_DIR to another folder)`);
  }
}

/**
 * A folder made by hand may be open to everyone. It is narrowed only when this user owns it: a folder
 * shared with others (another user's, say) is not the runner's to take over.
 */
function makePrivateIfOwned(folder: string): void {
  if (statSync(folder).uid === process.getuid?.()) chmodSync(folder, PRIVATE_FOLDER_MODE);
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A process as a lock records it: a process id alone is reused once its process is gone, the id with the
 * process's start time names one process. `startTime` is missing when it could not be read.
 */
interface ProcessIdentity {
  pid: number;
  startTime?: string;
}

/**
 * When process `pid` started, as text to compare with another reading on this machine; undefined when it
 * cannot be read (the process is gone, or the system does not say).
 */
export function processStartTime(pid: number): string | undefined {
  return process.platform === 'linux' ? startTimeFromProc(pid) : startTimeFromPs(pid);
}

/**
 * Linux: the start time in clock ticks since boot, prefixed with the boot's id, since ticks start again at
 * every boot (a lock left by a power cut must not match a process of the next boot).
 */
function startTimeFromProc(pid: number): string | undefined {
  try {
    const ticks = startTicksFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return ticks && `${bootId()}:${ticks}`;
  } catch {
    return undefined;
  }
}

/**
 * Field 22 (starttime) of a /proc/<pid>/stat line. Field 2 is the command name in parentheses, which may
 * hold spaces and parentheses itself, so fields are counted from the last ')'; field 3 comes right after it.
 */
export function startTicksFromStat(stat: string): string | undefined {
  const afterName = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const ticks = afterName[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/** This boot's id; without it (a restricted /proc), ticks alone still tell processes of one boot apart. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'this-boot';
  }
}

/**
 * Elsewhere: the start date `ps` prints (to the second), in one language and time zone whoever asks, so
 * the runner and the operator's tool read the same text. `ps` may be missing; then nothing is known.
 */
function startTimeFromPs(pid: number): string | undefined {
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
    }).trim();
    return started || undefined;
  } catch {
    return undefined;
  }
}

const thisProcess = (): ProcessIdentity => ({ pid: process.pid, startTime: processStartTime(process.pid) });

/**
 * Whether the recorded process still runs: a live process with that id and the recorded start time. When
 * either start time is unknown, a live process with that id counts.
 */
function isStillRunning({ pid, startTime }: ProcessIdentity): boolean {
  if (!isRunning(pid)) return false;
  if (startTime === undefined) return true;
  const current = processStartTime(pid);
  return current === undefined || current === startTime;
}

/** The process a lock file names (`{ "pid", "startTime" }`); undefined when it names none, so the lock is stale. */
function parseLockOwner(text: string): ProcessIdentity | undefined {
  try {
    return asProcessIdentity(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const isProcessId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

function asProcessIdentity(recorded: unknown): ProcessIdentity | undefined {
  const { pid, startTime } = (recorded ?? {}) as { pid?: unknown; startTime?: unknown };
  if (!isProcessId(pid)) return undefined;
  return typeof startTime === 'string' ? { pid, startTime } : { pid };
}

/**
 * Claims the data folder for this process. LevelDB allows one process per folder, and dynalite crashes
 * rather than reports it, so a second runner is turned away here, by name. A lock left by a process that
 * is gone, or whose id now belongs to another program, is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify(thisProcess()), { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = parseLockOwner(readFileSync(lockFile, 'utf8'));
      if (owner && isStillRunning(owner)) {
        throw new Error(`the data folder ${dataDir} is in use by another Mandje (process ${owner.pid})`);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`the data folder ${dataDir} could not be locked`);
}

/**
 * Tells other processes where this store listens: only one process can open the folder, so the operator's
 * tools reach a running store through its endpoint. Written whole (temporary file, then rename), so a
 * reader never sees half of it.
 */
function recordEndpoint(dataDir: string, endpoint: string): () => void {
  const file = join(dataDir, STORE_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify({ ...thisProcess(), endpoint }), { mode: PRIVATE_FILE_MODE });
  renameSync(partial, file);
  return () => rmSync(file, { force: true });
}

/** The endpoint of the store that has `dataDir` open in another process, if one is running. */
export function runningStoreEndpoint(dataDir: string): string | undefined {
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(join(dataDir, STORE_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const owner = asProcessIdentity(recorded);
  const { endpoint } = (recorded ?? {}) as { endpoint?: unknown };
  if (!owner || typeof endpoint !== 'string') return undefined;
  return owner.pid !== process.pid && isStillRunning(owner) ? endpoint : undefined;
}

/** What the store process (store-process.ts) tells the runner, and the runner tells it. */
export type StoreProcessMessage =
  | { kind: 'ready' }
  | { kind: 'storage-fault'; code: string }
  | { kind: 'crashed'; errorName: string }
  | { kind: 'close' };

/** The store's socket in the data folder, or, where that path is too long for a socket, a private temp one. */
function socketPathFor(dataDir: string): { socketPath: string; cleanUp(): void } {
  const inDataDir = join(dataDir, 'store.sock');
  if (inDataDir.length <= MAX_SOCKET_PATH_LENGTH) {
    return { socketPath: inDataDir, cleanUp: () => rmSync(inDataDir, { force: true }) };
  }
  const folder = mkdtempSync(join(tmpdir(), 'mandje-store-'));
  return {
    socketPath: join(folder, 'store.sock'),
    cleanUp: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * The in-memory store, in this process (nothing is written, so no disk can fail it), on a socket in a
 * private temporary folder (mkdtemp makes it 0700).
 */
async function startInMemory(): Promise<LocalDynamoDB> {
  const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => Server;
  const folder = mkdtempSync(join(tmpdir(), 'mandje-store-'));
  const socketPath = join(folder, 'store.sock');
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await listenOnPrivateSocket(server, socketPath);
  return {
    endpoint: socketPath,
    close: () =>
      new Promise<void>((resolveClose, reject) =>
        server.close((error) => (error ? reject(error) : resolveClose())),
      ).finally(() => rmSync(folder, { recursive: true, force: true })),
  };
}

const STORE_PROCESS = resolve(import.meta.dirname, 'store-process.ts');
const REPO_ROOT = resolve(import.meta.dirname, '..');
/** How long a first start may keep failing (a store process of a runner just killed still closing). */
const FIRST_START_PATIENCE_MS = 10_000;
const RESTART_DELAY_MS = { first: 100, max: 5_000 };

/** Starts store-process.ts once; resolves when it listens, rejects with its last word if it ends first. */
function startStoreProcess(
  dataDir: string,
  socketPath: string,
  onMessage: (message: StoreProcessMessage) => void,
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', STORE_PROCESS, dataDir, socketPath], {
    // tsx is found from the project's folder, wherever the runner was started.
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolveExit) => child.once('close', () => resolveExit()));
  let lastWord = 'it ended before it was ready';
  return new Promise((resolveStart, rejectStart) => {
    child.on('message', (message: StoreProcessMessage) => {
      if (message.kind === 'ready') resolveStart({ child, exited });
      else if (message.kind === 'storage-fault') lastWord = `its data folder gave ${message.code}`;
      else if (message.kind === 'crashed') lastWord = `it failed with ${message.errorName}`;
      onMessage(message);
    });
    child.once('error', (error) => {
      lastWord = `it could not be started (${(error as NodeJS.ErrnoException).code ?? error.name})`;
    });
    exited.then(() => rejectStart(new Error(lastWord)));
  });
}

/**
 * The store on a data folder, in a process of its own (store-process.ts) that this one watches: when it
 * ends (its folder could not be written, or dynalite failed), it is started again, at growing intervals,
 * on the same socket. Meanwhile the socket refuses connections, which the handlers answer with "try
 * again"; once the folder can be written again, the store is back without a restart of the runner.
 */
async function startOnDisk(
  dataDir: string,
  socketPath: string,
  print: (line: string) => void,
): Promise<{ close(): Promise<void> }> {
  let closing = false;
  const closed = new AbortController();
  let current: { child: ChildProcess; exited: Promise<void> } | undefined;
  let said: { code: string; at: number } | undefined;
  const onMessage = (message: StoreProcessMessage) => {
    // Said once, and again a minute later while it lasts: not at every attempt.
    if (message.kind === 'storage-fault' && (said?.code !== message.code || Date.now() - said.at > 60_000)) {
      said = { code: message.code, at: Date.now() };
      print(
        `The store could not write to ${dataDir} (${message.code}): signups are answered "try again" until it can.`,
      );
    } else if (message.kind === 'crashed') {
      print(`The store failed (${message.errorName}); starting it again.`);
    }
  };

  const deadline = Date.now() + FIRST_START_PATIENCE_MS;
  for (let wait = RESTART_DELAY_MS.first; ; wait = Math.min(wait * 2, RESTART_DELAY_MS.max)) {
    try {
      current = await startStoreProcess(dataDir, socketPath, onMessage);
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`the store in ${dataDir} could not start: ${(error as Error).message}`);
      }
      await delay(wait);
    }
  }

  /**
   * Keeps a store process running until close: each one that ends is followed by another, sooner when
   * the last one ran a while, later while each ends soon after it started (a disk still full).
   */
  const watching = (async () => {
    let wait = RESTART_DELAY_MS.first;
    let startedAt = Date.now();
    while (!closing) {
      await current?.exited;
      current = undefined;
      if (closing) return;
      wait = Date.now() - startedAt > RESTART_DELAY_MS.max ? RESTART_DELAY_MS.first : wait;
      await delay(wait, undefined, { signal: closed.signal }).catch(() => {});
      wait = Math.min(wait * 2, RESTART_DELAY_MS.max);
      if (closing) return;
      startedAt = Date.now();
      current = await startStoreProcess(dataDir, socketPath, onMessage).catch(() => undefined);
    }
  })();

  const stop = async (running: typeof current) => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.send({ kind: 'close' } satisfies StoreProcessMessage, () => {});
    }
    await running?.exited;
  };
  return {
    async close() {
      closing = true;
      closed.abort();
      await stop(current);
      await watching;
      // One started while this was closing.
      await stop(current);
    },
  };
}

/**
 * DynamoDB's API on this machine: dynalite with its data in `dataDir` (LevelDB files), or in memory for
 * `:memory:`. It listens on a Unix socket in a folder only this user may open, never on a network port:
 * `endpoint` is that socket's path (local-store-client.ts reaches it).
 */
export async function startLocalDynamoDB(
  dataDir: string,
  { print = console.log }: { print?: (line: string) => void } = {},
): Promise<LocalDynamoDB> {
  if (dataDir === IN_MEMORY) return startInMemory();
  await prepareDataDir(dataDir);
  const unlock = lockDataDir(dataDir);
  const { socketPath, cleanUp } = socketPathFor(dataDir);
  let store: { close(): Promise<void> };
  try {
    store = await startOnDisk(dataDir, socketPath, print);
  } catch (error) {
    cleanUp();
    unlock();
    throw error;
  }
  let forgetEndpoint = () => {};
  const close = () =>
    store.close().finally(() => {
      forgetEndpoint();
      cleanUp();
      unlock();
    });
  try {
    forgetEndpoint = recordEndpoint(dataDir, socketPath);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint: socketPath, close };
}

/**
 * Creates the waitlist table with the production key schema, and the mail limit's table the mailer
 * counts in, unless they are there already. A store that does not answer within seconds makes this throw.
 */
export async function ensureWaitlistTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<void> {
  const client = localStoreClient(endpoint, { maxAttempts: 1, requestHandler: { requestTimeout: 5_000 } });
  try {
    await createTableUnlessPresent(client, tableName);
    await createKeyedTableUnlessPresent(client, LOCAL_MAIL_LIMIT_TABLE_NAME, MAIL_LIMIT_TABLE_KEY);
    await createKeyedTableUnlessPresent(client, LOCAL_VISITOR_TABLE_NAME, VISITOR_TABLE_KEY);
  } finally {
    client.destroy();
  }
}

/**
 * A table of hashes with one string key, as the contract names it: the per-mailbox limit's
 * (#contract/abuse-limits) and the day's visitors' (#contract/visit-counting). Their time to live is AWS's.
 */
async function createKeyedTableUnlessPresent(
  client: DynamoDBClient,
  tableName: string,
  key: { name: string; type: 'S' },
): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: key.name, KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: key.name, AttributeType: key.type }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await untilActive(client, tableName);
}

/** The indexes the stack gives the waitlist table (#contract/waitlist-table), as the store is asked for them. */
const WAITLIST_INDEXES = [
  {
    IndexName: TOKEN_INDEX.name,
    KeySchema: [{ AttributeName: TOKEN_INDEX.key.name, KeyType: 'HASH' as const }],
    Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...TOKEN_INDEX.projection] },
  },
  {
    IndexName: MAILBOX_INDEX.name,
    KeySchema: [{ AttributeName: MAILBOX_INDEX.key.name, KeyType: 'HASH' as const }],
    Projection: { ProjectionType: 'KEYS_ONLY' as const },
  },
];

const createWaitlistTable = async (client: DynamoDBClient, tableName: string) => {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: WAITLIST_TABLE_KEY.type },
        { AttributeName: TOKEN_INDEX.key.name, AttributeType: TOKEN_INDEX.key.type },
        { AttributeName: MAILBOX_INDEX.key.name, AttributeType: MAILBOX_INDEX.key.type },
      ],
      GlobalSecondaryIndexes: WAITLIST_INDEXES,
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await untilActive(client, tableName);
};

async function describeTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** A store this version cannot use: its message says why, to follow where it is. */
export class OlderFolderError extends Error {}

/**
 * The waitlist table, made unless it is there. A table from a data folder made before one of its indexes
 * existed is refused in one sentence: dynalite cannot add an index to a table, and the waitlist is not
 * yet live anywhere, so such a folder holds only test signups.
 */
async function createTableUnlessPresent(client: DynamoDBClient, tableName: string): Promise<void> {
  const existing = await describeTable(client, tableName);
  if (!existing) return createWaitlistTable(client, tableName);
  const missing = WAITLIST_INDEXES.find(
    ({ IndexName }) => !existing.GlobalSecondaryIndexes?.some((index) => index.IndexName === IndexName),
  );
  if (missing) {
    throw new OlderFolderError(
      `its waitlist is from an older Mandje, without the ${missing.IndexName} index`,
    );
  }
}

/**
 * A new table is CREATING for a moment, and dynalite answers a put then as if there were no table. The
 * SDK's own waiter polls every 20 s at the least, so this polls by hand, for a few seconds at most.
 */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every(
      (index) => index.IndexStatus === 'ACTIVE',
    );
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`the table ${tableName} did not become active`);
    await delay(20);
  }
}
