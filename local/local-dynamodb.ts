import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { CreateTableCommand, DescribeTableCommand, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { MAILBOX_INDEX, TOKEN_INDEX, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { IN_MEMORY } from './data-dir';
import * as local from './local-store-client';

const LOCK_FILE = 'mandje-runner.pid';

export type LocalDynamoDB = { endpoint: string; close(): Promise<void> };

/** The live process that holds the data folder, and where its store listens; undefined if none. */
function lockOwner(dataDir: string): { pid: number; endpoint?: string } | undefined {
  let owner: { pid: number; endpoint?: string } | undefined;
  try {
    owner = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'));
    // Signal 0 only asks whether the process is there.
    process.kill(Number(owner?.pid), 0);
  } catch (error) {
    // EPERM: alive, another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return owner;
}

// LevelDB allows one process per folder; a lock whose process is gone (a crash) is taken over.
function lockDataDir(dataDir: string, endpoint: string): () => void {
  const lockFile = join(dataDir, LOCK_FILE);
  const take = () =>
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, endpoint }), { flag: 'wx', mode: 0o600 });
  try {
    take();
  } catch (error) {
    const owner = lockOwner(dataDir);
    if (owner && owner.pid !== process.pid)
      throw new Error(
        `the data folder ${dataDir} is in use by another Mandje (process ${owner.pid}; if none runs, delete ${lockFile})`,
      );
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(lockFile, { force: true });
    take();
  }
  return () => {
    if (lockOwner(dataDir)?.pid === process.pid) rmSync(lockFile, { force: true });
  };
}

/** The store of the process holding `dataDir` (the runner), for the operator's tool to go through. */
export function runningStoreEndpoint(dataDir: string): string | undefined {
  const owner = lockOwner(dataDir);
  return owner && owner.pid !== process.pid ? owner.endpoint : undefined;
}

type LevelDatabase = { open(): Promise<void> } & Record<
  'put' | 'del' | 'batch' | 'get' | '_put' | '_del' | '_batch',
  (...args: unknown[]) => unknown
>;
const require = createRequire(import.meta.url);
const dynaliteDb = require('dynalite/db') as {
  create: (options: { path?: string }) => { db: LevelDatabase };
};
const dynalite = require('dynalite') as (options: object) => Server;

/** dynalite sends an error with statusCode and body as it is: the handler answers it "try again". */
const internalServerError = () =>
  Object.assign(new Error('the data folder could not be written'), {
    statusCode: 500,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
      message: 'The store could not write to its data folder',
    },
  });

/** Which OS error the data folder gives now (undefined: none): LevelDB reports only a sentence. */
function probeDataDir(dataDir: string): string | undefined {
  const probe = join(dataDir, '.write-probe');
  try {
    writeFileSync(probe, Buffer.alloc(64 * 1024));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  } finally {
    rmSync(probe, { force: true });
  }
}

// A write is answered once synced, as DynamoDB's; after a failed one (a full disk) every later one gets 500
// ("try again") until a restart, where dynalite would throw the error with nothing to catch it.
function guardWrites(db: LevelDatabase, dataDir: string): void {
  let broken = false;
  // dynalite passes no options, so they are set where classic-level takes them (its last argument).
  for (const method of ['_put', '_del', '_batch'] as const) {
    const write = db[method].bind(db);
    db[method] = (...args) => write(...args.slice(0, -1), { ...(args.at(-1) as object), sync: true });
  }
  for (const method of ['put', 'del', 'batch', 'get'] as const) {
    const original = db[method].bind(db);
    db[method] = (...args) => {
      if (typeof args.at(-1) !== 'function') return original(...args);
      const callback = args.pop() as (...values: unknown[]) => void;
      if (method === 'get')
        return original(...args, (error: { name?: string; statusCode?: number } | null, value: unknown) =>
          error && error.name !== 'NotFoundError' && !error.statusCode
            ? callback(internalServerError())
            : callback(error, value),
        );
      if (broken) return void setImmediate(callback, internalServerError());
      return original(...args, (error?: unknown) => {
        if (error && !broken)
          console.log(
            `The store could not write to ${dataDir} (${probeDataDir(dataDir) ?? 'EIO'}): signups are answered "try again" until Mandje is started again.`,
          );
        broken ||= Boolean(error);
        callback(broken ? internalServerError() : error);
      });
    };
  }
}

let created: LevelDatabase | undefined;
const create = dynaliteDb.create;
dynaliteDb.create = (options) => {
  const store = create(options);
  if (options.path) guardWrites(store.db, options.path);
  created = store.db;
  return store;
};

/** dynalite on `dataDir` (or `:memory:`), on a Unix socket only this user may open, never a network port. */
export async function startLocalDynamoDB(dataDir: string): Promise<LocalDynamoDB> {
  const onDisk = dataDir !== IN_MEMORY;
  // The data folder holds email addresses: it is made private, when this user owns it.
  try {
    if (onDisk) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
      await access(dataDir, constants.W_OK);
    }
  } catch {
    throw new Error(`the data folder ${dataDir} cannot be written (set DATA_DIR to another folder)`);
  }
  // A socket's path has 104 bytes at most (macOS): a longer one goes in a private temporary folder.
  const inDataDir = join(dataDir, 'store.sock');
  const socketFolder =
    onDisk && inDataDir.length <= 100 ? undefined : mkdtempSync(join(tmpdir(), 'mandje-store-'));
  const socketPath = socketFolder ? join(socketFolder, 'store.sock') : inDataDir;
  const unlock = onDisk ? lockDataDir(dataDir, socketPath) : () => {};
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    path: onDisk ? dataDir : undefined,
  });
  const database = created;
  const close = () =>
    promisify(server.close.bind(server))().finally(() => {
      rmSync(socketFolder ?? socketPath, { recursive: true, force: true });
      unlock();
    });
  try {
    // LevelDB writes as it opens: a folder it cannot open (full, or held by another program) is said at once.
    await database?.open().catch((error: { cause?: NodeJS.ErrnoException }) => {
      const reason = probeDataDir(dataDir) ?? error.cause?.code ?? error.cause?.message ?? 'open failed';
      throw new Error(`the store in ${dataDir} could not open its files (${reason})`);
    });
    // One left by a runner that was killed is this runner's now: it holds the lock.
    rmSync(socketPath, { force: true });
    await new Promise<void>((listening, fail) => server.once('error', fail).listen(socketPath, listening));
    chmodSync(socketPath, 0o600);
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { endpoint: socketPath, close };
}

export class OlderFolderError extends Error {}

type Key = { name: string; type: 'S' };

/** Creates the tables as the stack does, unless there; throws if the store does not answer within seconds. */
export async function ensureWaitlistTable(
  endpoint: string,
  tableName = local.LOCAL_TABLE_NAME,
): Promise<void> {
  const client = local.localStoreClient(endpoint, {
    maxAttempts: 1,
    requestHandler: { requestTimeout: 5_000 },
  });
  const ensure = async (
    TableName: string,
    key: Key,
    indexes: { name: string; key: Key; projection?: readonly string[] }[] = [],
  ) => {
    const keySchema = (name: string) => [{ AttributeName: name, KeyType: 'HASH' as const }];
    await client
      .send(
        new CreateTableCommand({
          TableName,
          KeySchema: keySchema(key.name),
          AttributeDefinitions: [key, ...indexes.map((index) => index.key)].map(({ name, type }) => ({
            AttributeName: name,
            AttributeType: type,
          })),
          BillingMode: 'PAY_PER_REQUEST',
          ...(indexes.length > 0 && {
            GlobalSecondaryIndexes: indexes.map(({ name, key, projection }) => ({
              IndexName: name,
              KeySchema: keySchema(key.name),
              Projection: projection
                ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection] }
                : { ProjectionType: 'KEYS_ONLY' },
            })),
          }),
        }),
      )
      .catch((error) => {
        if (!(error instanceof ResourceInUseException)) throw error;
      });
    // dynalite treats a CREATING table as missing, and the SDK's waiter polls every 20 s: polled by hand.
    for (const deadline = Date.now() + 5_000; ; await delay(20)) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      const present = Table?.GlobalSecondaryIndexes ?? [];
      // dynalite cannot add an index, and the waitlist is not live anywhere yet: such a folder holds test signups.
      const missing = indexes.find(({ name }) => !present.some((index) => index.IndexName === name));
      if (missing)
        throw new OlderFolderError(`its waitlist is from an older Mandje, without the ${missing.name} index`);
      if (Table?.TableStatus === 'ACTIVE' && present.every((index) => index.IndexStatus === 'ACTIVE')) return;
      if (Date.now() > deadline) throw new Error(`the table ${TableName} did not become active`);
    }
  };
  try {
    await ensure(tableName, WAITLIST_TABLE_KEY, [TOKEN_INDEX, MAILBOX_INDEX]);
    await ensure(local.LOCAL_MAIL_LIMIT_TABLE_NAME, MAIL_LIMIT_TABLE_KEY);
    await ensure(local.LOCAL_VISITOR_TABLE_NAME, VISITOR_TABLE_KEY);
  } finally {
    client.destroy();
  }
}
