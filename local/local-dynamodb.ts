import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { IN_MEMORY } from './data-dir';

// dynalite is CommonJS without types: describe the little of it that is used.
interface DynaliteServer {
  listen(port: number, host: string, callback: (error?: Error) => void): void;
  close(callback: (error?: Error) => void): void;
  address(): AddressInfo;
}
const dynalite = createRequire(import.meta.url)('dynalite') as (options: {
  createTableMs: number;
  deleteTableMs: number;
  updateTableMs: number;
  path?: string;
}) => DynaliteServer;

/** The waitlist table's name in the local store. */
export const LOCAL_TABLE_NAME = 'mandje-waitlist';

/** Where a running store says how to reach it, for the operator's tools (see runningStoreEndpoint). */
const STORE_FILE = 'mandje-store.json';

export interface LocalDynamoDB {
  endpoint: string;
  close(): Promise<void>;
}

/** Fails with one clear sentence when the data folder cannot be written. */
async function prepareDataDir(dataDir: string): Promise<void> {
  try {
    mkdirSync(dataDir, { recursive: true });
    await access(dataDir, constants.W_OK);
  } catch {
    throw new Error(`the data folder ${dataDir} cannot be written (set DATA_DIR to another folder)`);
  }
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
 * Claims the data folder for this process. LevelDB allows one process per folder, and dynalite crashes
 * rather than reports it, so a second runner is turned away here, by name. A lock left by a process that
 * is gone is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, 'mandje-runner.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
        throw new Error(`the data folder ${dataDir} is in use by another Mandje (process ${owner})`);
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
  writeFileSync(partial, JSON.stringify({ pid: process.pid, endpoint }));
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
  const { pid, endpoint } = (recorded ?? {}) as { pid?: unknown; endpoint?: unknown };
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || typeof endpoint !== 'string') {
    return undefined;
  }
  return pid !== process.pid && isRunning(pid) ? endpoint : undefined;
}

/**
 * DynamoDB's API on this machine: dynalite on loopback, with its data in `dataDir` (LevelDB files), or in
 * memory for `:memory:`.
 */
export async function startLocalDynamoDB(dataDir: string): Promise<LocalDynamoDB> {
  const inMemory = dataDir === IN_MEMORY;
  let unlock = () => {};
  if (!inMemory) {
    await prepareDataDir(dataDir);
    unlock = lockDataDir(dataDir);
  }
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(inMemory ? {} : { path: dataDir }),
  });
  let forgetEndpoint = () => {};
  const close = () => {
    forgetEndpoint();
    return new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    ).finally(unlock);
  };
  try {
    await new Promise<void>((resolve, reject) =>
      server.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    unlock();
    throw error;
  }
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  try {
    if (!inMemory) forgetEndpoint = recordEndpoint(dataDir, endpoint);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint, close };
}

/**
 * Creates the waitlist table with the production key schema, unless it is there already. A store that
 * does not answer within seconds (its files locked by another process, say) makes this throw.
 */
export async function ensureWaitlistTable(tableName: string): Promise<void> {
  const client = new DynamoDBClient({ maxAttempts: 1, requestHandler: { requestTimeout: 5_000 } });
  try {
    await createTableUnlessPresent(client, tableName);
  } finally {
    client.destroy();
  }
}

async function createTableUnlessPresent(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: WAITLIST_TABLE_KEY.type },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
}
