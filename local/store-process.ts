/**
 * The local store on a data folder, in a process of its own that the runner starts and watches
 * (local-dynamodb.ts): dynalite on LevelDB, answering on a Unix socket only its owner may open.
 * Usage (by local-dynamodb.ts only): store-process.ts <dataDir> <socketPath>
 *
 * Why a process of its own: when a write fails (a full disk, say), dynalite throws the error where nothing
 * catches it, and LevelDB's log is left in a state in which a later write may report success and still be
 * lost. So here a failed write is answered as DynamoDB answers its own faults (500 InternalServerError,
 * which the handler turns into "try again"), no further write is taken, and the process ends, for the runner
 * to open the folder afresh once it can be written again. Whatever else would crash dynalite ends only
 * this process, too.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { StoreProcessMessage } from './local-dynamodb';
import { listenOnPrivateSocket } from './private-socket';

const [dataDir, socketPath] = process.argv.slice(2);
if (!dataDir || !socketPath) throw new Error('usage: store-process.ts <dataDir> <socketPath>');

/** Resolves once the message is sent, so that it can be the last thing a process does. */
const tell = (message: StoreProcessMessage) =>
  new Promise<void>((sent) => (process.send ? process.send(message, () => sent()) : sent()));

// The runner went away (even by kill -9): the folder is left for the next one.
process.on('disconnect', () => process.exit(0));

interface LevelDatabase {
  /** Resolves once the database is open; rejects with the reason (`cause`) when it cannot be opened. */
  open: () => Promise<void>;
  put: (...args: unknown[]) => unknown;
  del: (...args: unknown[]) => unknown;
  batch: (...args: unknown[]) => unknown;
  get: (...args: unknown[]) => unknown;
}
interface DynaliteStore {
  db: LevelDatabase;
}

const require = createRequire(import.meta.url);
const dynaliteDb = require('dynalite/db') as { create: (options: object) => DynaliteStore };

/** Set by the first failed write: from then on every write is refused, and the process ends. */
let broken = false;

/** The error dynalite sends as it is (it answers any error with statusCode and body so). */
const internalServerError = () =>
  Object.assign(new Error('the data folder could not be written'), {
    statusCode: 500,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
      message: 'The store could not write to its data folder',
    },
  });

/**
 * Which OS error the data folder gives now, by writing a little to it (undefined: none): LevelDB reports
 * only "IO error" and a sentence, and sentences are not matched here.
 */
function probeDataDir(): string | undefined {
  const probe = join(dataDir as string, '.write-probe');
  try {
    writeFileSync(probe, Buffer.alloc(64 * 1024));
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  } finally {
    // At once: the process may end next, and a probe left behind would take the space it measured.
    rmSync(probe, { force: true });
  }
}

function fail(): void {
  if (broken) return;
  broken = true;
  tell({ kind: 'storage-fault', code: probeDataDir() ?? 'EIO' });
  // Long enough for the answers under way to go out; new connections are refused from now on.
  server?.close(() => {});
  setTimeout(() => process.exit(75), 200).unref();
}

/** Wraps a LevelDB write so that a failure is answered, not thrown, and stops all later writes. */
function guardWrite(db: LevelDatabase, method: 'put' | 'del' | 'batch'): void {
  const original = db[method].bind(db) as (...args: unknown[]) => unknown;
  db[method] = (...args: unknown[]) => {
    const callback =
      typeof args.at(-1) === 'function' ? (args.pop() as (error?: unknown) => void) : undefined;
    if (!callback) return original(...args);
    if (broken) {
      setImmediate(callback, internalServerError());
      return;
    }
    return original(...args, (error?: unknown) => {
      if (error) {
        fail();
        callback(internalServerError());
      } else callback(broken ? internalServerError() : error);
    });
  };
}

/** Any other error a read meets is answered too, rather than thrown where nothing catches it. */
function guardRead(db: LevelDatabase): void {
  const original = db.get.bind(db) as (...args: unknown[]) => unknown;
  db.get = (...args: unknown[]) => {
    const callback =
      typeof args.at(-1) === 'function' ? (args.pop() as (...values: unknown[]) => void) : undefined;
    if (!callback) return original(...args);
    return original(...args, (error: { name?: string; statusCode?: number } | null, value: unknown) => {
      if (error && error.name !== 'NotFoundError' && !error.statusCode) callback(internalServerError());
      else callback(error, value);
    });
  };
}

let database: LevelDatabase | undefined;
const create = dynaliteDb.create;
dynaliteDb.create = (options) => {
  const store = create(options);
  database = store.db;
  for (const method of ['put', 'del', 'batch'] as const) guardWrite(store.db, method);
  guardRead(store.db);
  return store;
};

// Whatever else dynalite throws: this process ends, the runner starts another.
process.on('uncaughtException', (error) => {
  tell({ kind: 'crashed', errorName: (error as NodeJS.ErrnoException).code ?? error.name });
  process.exit(70);
});

const dynalite = require('dynalite') as (options: object) => import('node:http').Server;
const server: import('node:http').Server | undefined = dynalite({
  createTableMs: 0,
  deleteTableMs: 0,
  updateTableMs: 0,
  path: dataDir,
});

process.on('message', (message: StoreProcessMessage) => {
  if (message.kind !== 'close') return;
  server.close(() => process.exit(0));
});

/**
 * LevelDB writes as it opens (it replays its log into a new table and MANIFEST), so on a full disk the open
 * fails. dynalite ignores that and listens anyway, answering every request 500 ("Database is closed")
 * without ever reaching a write that fails, so nothing would end this process. Ready therefore means open;
 * otherwise this process ends, to be started again, and the next open replays the log, which a failed open
 * leaves as it was (LevelDB switches to a new MANIFEST only once it is written whole).
 */
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

await listenOnPrivateSocket(server, socketPath);
tell({ kind: 'ready' });
