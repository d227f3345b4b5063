import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { WAITLIST_TABLE_KEY } from '../functions/waitlist/waitlist-table';
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
  const close = () =>
    new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    ).finally(unlock);
  try {
    await new Promise<void>((resolve, reject) =>
      server.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    unlock();
    throw error;
  }
  return { endpoint: `http://127.0.0.1:${server.address().port}`, close };
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
