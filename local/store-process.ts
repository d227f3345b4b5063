// `store-process.ts <dataDir> <socketPath>`, run by local-dynamodb.ts. On a failed write (a full disk) dynalite
// throws where nothing catches it and LevelDB may later lose writes it reported done: so that write is answered
// 500 (the handler's "try again"), no other is taken, and the process ends, for the runner to start afresh.
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { StoreProcessMessage } from './local-dynamodb';

const [dataDir, socketPath] = process.argv.slice(2) as [string, string];

/** Resolves once sent, so that it can be the last thing a process does. */
const tell = (message: StoreProcessMessage) =>
  new Promise<void>((sent) => (process.send ? process.send(message, () => sent()) : sent()));

// The runner went away (even by kill -9): the folder is left for the next one.
process.on('disconnect', () => process.exit(0));

/** `open` rejects with the reason as `cause`. */
type LevelDatabase = { open: () => Promise<void> } & Record<
  'put' | 'del' | 'batch' | 'get' | '_put' | '_del' | '_batch',
  LevelMethod
>;
type LevelMethod = (...args: unknown[]) => unknown;

const require = createRequire(import.meta.url);
const dynaliteDb = require('dynalite/db') as { create: (options: object) => { db: LevelDatabase } };

let broken = false;

/** dynalite sends an error with statusCode and body as it is. */
const internalServerError = () =>
  Object.assign(new Error('the data folder could not be written'), {
    statusCode: 500,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
      message: 'The store could not write to its data folder',
    },
  });

/** Which OS error the data folder gives now (undefined: none): LevelDB reports only a sentence. */
function probeDataDir(): string | undefined {
  const probe = join(dataDir, '.write-probe');
  try {
    writeFileSync(probe, Buffer.alloc(64 * 1024));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  } finally {
    // At once: the process may end next, and a probe left behind would take the space it measured.
    rmSync(probe, { force: true });
  }
}

let database: LevelDatabase | undefined;
const create = dynaliteDb.create;
dynaliteDb.create = (options) => {
  const store = create(options);
  database = store.db;
  // A write is answered once LevelDB has synced its log, as DynamoDB answers once the item is stored: without
  // it an OS fault loses what was acknowledged. dynalite passes no options, so they are set where classic-level
  // takes them (its last argument).
  for (const method of ['_put', '_del', '_batch'] as const) {
    const write = store.db[method].bind(store.db);
    store.db[method] = (...args: unknown[]) =>
      write(...args.slice(0, -1), { ...(args.at(-1) as object), sync: true });
  }
  // Errors are answered, not thrown where nothing catches them; a failed write stops all later writes.
  for (const method of ['put', 'del', 'batch', 'get'] as const) {
    const original = store.db[method].bind(store.db);
    store.db[method] = (...args: unknown[]) => {
      const callback =
        typeof args.at(-1) === 'function' ? (args.pop() as (...values: unknown[]) => void) : undefined;
      if (!callback) return original(...args);
      if (method === 'get')
        return original(...args, (error: { name?: string; statusCode?: number } | null, value: unknown) => {
          if (error && error.name !== 'NotFoundError' && !error.statusCode) callback(internalServerError());
          else callback(error, value);
        });
      if (broken) return void setImmediate(callback, internalServerError());
      return original(...args, (error?: unknown) => {
        if (error && !broken) {
          broken = true;
          tell({ kind: 'storage-fault', code: probeDataDir() ?? 'EIO' });
          // Long enough for the answers under way to go out; new connections are refused from now on.
          server.close(() => {});
          setTimeout(() => process.exit(75), 200).unref();
        }
        callback(error || broken ? internalServerError() : error);
      });
    };
  }
  return store;
};

// Whatever else dynalite throws: this process ends, the runner starts another.
process.on('uncaughtException', (error) => {
  tell({ kind: 'crashed', errorName: (error as NodeJS.ErrnoException).code ?? error.name });
  process.exit(70);
});

const dynalite = require('dynalite') as (options: object) => import('node:http').Server;
const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: dataDir });

process.on('message', (message: StoreProcessMessage) => {
  if (message.kind === 'close') server.close(() => process.exit(0));
});

// LevelDB writes as it opens, so on a full disk the open fails and dynalite would answer every request 500 with
// no failing write to end this process: ready means open. The next open replays the log, which this left as is.
try {
  await database?.open();
} catch (error) {
  const code = probeDataDir();
  const { cause } = error as { cause?: NodeJS.ErrnoException };
  await tell(
    code ? { kind: 'storage-fault', code } : { kind: 'crashed', errorName: cause?.code ?? 'open failed' },
  );
  process.exit(75);
}

// Open to this user only, and made under a temporary name and renamed into place, so a client never meets a
// missing path, only the old socket (refused) or the new one.
const partial = join(dirname(socketPath), `.${basename(socketPath)}.${process.pid}`);
rmSync(partial, { force: true });
await new Promise<void>((listening) => server.listen(partial, listening));
chmodSync(partial, 0o600);
renameSync(partial, socketPath);
tell({ kind: 'ready' });
