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
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
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

const STORE_FILE = 'mandje-store.json';
const LOCK_FILE = 'mandje-runner.pid';

export interface LocalDynamoDB {
  endpoint: string;
  close(): Promise<void>;
}

/** Only the data folder itself is made private (it holds email addresses), and only when this user owns it. */
async function prepareDataDir(dataDir: string): Promise<void> {
  try {
    mkdirSync(dirname(dataDir), { recursive: true });
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
    await access(dataDir, constants.W_OK);
  } catch {
    throw new Error(`the data folder ${dataDir} cannot be written (set DATA_DIR to another folder)`);
  }
}

/** An id is reused once its process is gone; with the start time it names one process. */
interface ProcessIdentity {
  pid: number;
  startTime?: string;
}

/** When `pid` started, as text to compare with another reading; undefined when unknown. */
export function processStartTime(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') {
      // Field 22 of stat, counted after the command name (which may hold spaces and parentheses), with the
      // boot's id, since clock ticks start again at every boot.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ticks = stat
        .slice(stat.lastIndexOf(')') + 1)
        .trim()
        .split(/\s+/)[19];
      return ticks && `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}:${ticks}`;
    }
    // One language and time zone, so the runner and the operator's tool read the same text.
    const env = { ...process.env, LC_ALL: 'C', TZ: 'UTC' };
    return (
      execFileSync('ps', ['-o', 'lstart=', '-p', `${pid}`], {
        encoding: 'utf8',
        stdio: 'pipe',
        env,
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

const thisProcess = (): ProcessIdentity => ({ pid: process.pid, startTime: processStartTime(process.pid) });

/** A live process with the recorded id and, when both are known, start time. */
function isStillRunning({ pid, startTime }: ProcessIdentity): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const current = typeof startTime === 'string' ? processStartTime(pid) : undefined;
  return current === undefined || current === startTime;
}

/** A lock or store file; undefined when it names no process. */
function readRecord(file: string): (ProcessIdentity & { endpoint?: unknown }) | undefined {
  try {
    const recorded = JSON.parse(readFileSync(file, 'utf8'));
    return Number.isSafeInteger(recorded?.pid) && recorded.pid > 0 ? recorded : undefined;
  } catch {
    return undefined;
  }
}

// LevelDB allows one process per folder and dynalite crashes rather than says so: a second runner is
// turned away here, by name. A lock of a process that is gone (or whose id is now another's) is taken over.
function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify(thisProcess()), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readRecord(lockFile);
      if (owner && isStillRunning(owner)) {
        throw new Error(`the data folder ${dataDir} is in use by another Mandje (process ${owner.pid})`);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`the data folder ${dataDir} could not be locked`);
}

/** Written whole (temporary file, then rename), so a reader never sees half of it. */
function recordEndpoint(dataDir: string, endpoint: string): () => void {
  const file = join(dataDir, STORE_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify({ ...thisProcess(), endpoint }), { mode: 0o600 });
  renameSync(partial, file);
  return () => rmSync(file, { force: true });
}

/** The endpoint of the store that has `dataDir` open in another process, if one is running. */
export function runningStoreEndpoint(dataDir: string): string | undefined {
  const owner = readRecord(join(dataDir, STORE_FILE));
  if (!owner || typeof owner.endpoint !== 'string') return undefined;
  return owner.pid !== process.pid && isStillRunning(owner) ? owner.endpoint : undefined;
}

export type StoreProcessMessage =
  | { kind: 'ready' }
  | { kind: 'storage-fault'; code: string }
  | { kind: 'crashed'; errorName: string }
  | { kind: 'close' };

function privateTempSocket(): { socketPath: string; cleanUp(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'mandje-store-'));
  return {
    socketPath: join(folder, 'store.sock'),
    cleanUp: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** In this process: nothing is written, so no disk can fail it. */
async function startInMemory(): Promise<LocalDynamoDB> {
  const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => Server;
  const { socketPath, cleanUp } = privateTempSocket();
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await listenOnPrivateSocket(server, socketPath);
  return {
    endpoint: socketPath,
    close: () =>
      new Promise<void>((resolveClose, reject) =>
        server.close((error) => (error ? reject(error) : resolveClose())),
      ).finally(cleanUp),
  };
}

/** How long a first start may keep failing (a store process of a runner just killed still closing). */
const FIRST_START_PATIENCE_MS = 10_000;
const RESTART_DELAY_MS = { first: 100, max: 5_000 };

/** Starts store-process.ts once; resolves when it listens, rejects with its last word if it ends first. */
function startStoreProcess(
  dataDir: string,
  socketPath: string,
  onMessage: (message: StoreProcessMessage) => void,
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const script = resolve(import.meta.dirname, 'store-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, socketPath], {
    // tsx is found from the project's folder, wherever the runner was started.
    cwd: resolve(import.meta.dirname, '..'),
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

// The store on a data folder, in a process of its own that is started again, at growing intervals, on the
// same socket whenever it ends (its folder could not be written, or dynalite failed). Meanwhile the socket
// refuses connections, which the handlers answer "try again"; the store comes back without a restart.
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

  // Sooner after a store that ran a while, later while each ends soon after it started (a disk still full).
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

/** dynalite on `dataDir` (or `:memory:`), on a Unix socket only this user may open, never a network port. */
export async function startLocalDynamoDB(
  dataDir: string,
  { print = console.log }: { print?: (line: string) => void } = {},
): Promise<LocalDynamoDB> {
  if (dataDir === IN_MEMORY) return startInMemory();
  await prepareDataDir(dataDir);
  const unlock = lockDataDir(dataDir);
  // In the data folder, or in a private temporary one where that path is too long for a socket.
  const inDataDir = join(dataDir, 'store.sock');
  const { socketPath, cleanUp } =
    inDataDir.length > MAX_SOCKET_PATH_LENGTH
      ? privateTempSocket()
      : { socketPath: inDataDir, cleanUp: () => rmSync(inDataDir, { force: true }) };
  let store: { close(): Promise<void> } | undefined;
  try {
    store = await startOnDisk(dataDir, socketPath, print);
    const forgetEndpoint = recordEndpoint(dataDir, socketPath);
    const running = store;
    const close = () =>
      running.close().finally(() => {
        forgetEndpoint();
        cleanUp();
        unlock();
      });
    return { endpoint: socketPath, close };
  } catch (error) {
    await store?.close();
    cleanUp();
    unlock();
    throw error;
  }
}

export class OlderFolderError extends Error {}

const keyedTable = (TableName: string, key: { name: string; type: 'S' }) => ({
  TableName,
  KeySchema: [{ AttributeName: key.name, KeyType: 'HASH' as const }],
  AttributeDefinitions: [{ AttributeName: key.name, AttributeType: key.type }],
  BillingMode: 'PAY_PER_REQUEST' as const,
});

function waitlistTable(tableName: string): CreateTableCommandInput {
  const table = keyedTable(tableName, WAITLIST_TABLE_KEY);
  return {
    ...table,
    AttributeDefinitions: [
      ...table.AttributeDefinitions,
      { AttributeName: TOKEN_INDEX.key.name, AttributeType: TOKEN_INDEX.key.type },
      { AttributeName: MAILBOX_INDEX.key.name, AttributeType: MAILBOX_INDEX.key.type },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: TOKEN_INDEX.name,
        KeySchema: [{ AttributeName: TOKEN_INDEX.key.name, KeyType: 'HASH' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...TOKEN_INDEX.projection] },
      },
      {
        IndexName: MAILBOX_INDEX.name,
        KeySchema: [{ AttributeName: MAILBOX_INDEX.key.name, KeyType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  };
}

/** Creates the tables as the stack does, unless there; throws if the store does not answer within seconds. */
export async function ensureWaitlistTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<void> {
  const client = localStoreClient(endpoint, { maxAttempts: 1, requestHandler: { requestTimeout: 5_000 } });
  try {
    await createTableUnlessPresent(client, waitlistTable(tableName));
    await createTableUnlessPresent(client, keyedTable(LOCAL_MAIL_LIMIT_TABLE_NAME, MAIL_LIMIT_TABLE_KEY));
    await createTableUnlessPresent(client, keyedTable(LOCAL_VISITOR_TABLE_NAME, VISITOR_TABLE_KEY));
  } finally {
    client.destroy();
  }
}

// A table from a data folder made before one of its indexes existed is refused in one sentence: dynalite
// cannot add an index, and the waitlist is not yet live anywhere, so such a folder holds only test signups.
async function createTableUnlessPresent(
  client: DynamoDBClient,
  table: CreateTableCommandInput,
): Promise<void> {
  const existing = await client.send(new DescribeTableCommand({ TableName: table.TableName })).then(
    ({ Table }) => Table,
    (error) => {
      if (error instanceof ResourceNotFoundException) return undefined;
      throw error;
    },
  );
  if (!existing) {
    await client.send(new CreateTableCommand(table));
    return untilActive(client, table.TableName as string);
  }
  const missing = table.GlobalSecondaryIndexes?.find(
    ({ IndexName }) => !existing.GlobalSecondaryIndexes?.some((index) => index.IndexName === IndexName),
  );
  if (missing) {
    throw new OlderFolderError(
      `its waitlist is from an older Mandje, without the ${missing.IndexName} index`,
    );
  }
}

// dynalite answers a put to a CREATING table as if there were none, and the SDK's waiter polls every 20 s
// at the least: so this polls by hand, for a few seconds at most.
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
