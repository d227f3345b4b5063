/**
 * The store the benchmarks measure against: dynalite with the production table shape, clients pointed at
 * it explicitly, and a way to read back which addresses it holds.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import type { WaitlistStore } from '../functions/waitlist/join-waitlist';
import { ensureWaitlistTable, LOCAL_TABLE_NAME, startLocalDynamoDB } from '../local/local-dynamodb';

/** The table every benchmark writes to: the local runner's, which runner processes are given as TABLE_NAME. */
export const BENCH_TABLE_NAME = LOCAL_TABLE_NAME;

const LOCAL_REGION = 'eu-west-1';
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** What a process needs to find the local store, as the Lambda runtime would give it: for child processes. */
export function storeEnvironment(endpoint: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    TABLE_NAME: BENCH_TABLE_NAME,
  };
}

/**
 * Runs `work` with the store's environment set, then puts the environment back: `ensureWaitlistTable`
 * reads its endpoint from there, and the bench process must not stay pointed at a store that is closed.
 */
async function withStoreEnvironment<T>(endpoint: string, work: () => Promise<T>): Promise<T> {
  const settings = storeEnvironment(endpoint);
  const before = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

export interface BenchStore {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * Starts dynalite on `dataDir` (a folder, or `:memory:`) with the waitlist table in it. A folder a runner
 * wrote keeps its table, so reopening one afterwards finds what was stored.
 */
export async function startBenchStore(dataDir: string): Promise<BenchStore> {
  const dynamo = await startLocalDynamoDB(dataDir);
  try {
    await withStoreEnvironment(dynamo.endpoint, () => ensureWaitlistTable(BENCH_TABLE_NAME));
  } catch (error) {
    await dynamo.close();
    throw error;
  }
  return dynamo;
}

/** A document client for the store, configured like the handler's, but with the endpoint given here. */
export function createStoreClient(endpoint: string): WaitlistStore & { destroy(): void } {
  const client = new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  });
  return {
    client: DynamoDBDocumentClient.from(client),
    tableName: BENCH_TABLE_NAME,
    destroy: () => client.destroy(),
  };
}

/** Every key (the lower-cased address) in the waitlist table, read with a paginated Scan of keys only. */
export async function storedAddresses(endpoint: string): Promise<Set<string>> {
  const store = createStoreClient(endpoint);
  const addresses = new Set<string>();
  try {
    const pages = paginateScan(
      { client: store.client },
      {
        TableName: store.tableName,
        ProjectionExpression: '#key',
        ExpressionAttributeNames: { '#key': WAITLIST_TABLE_KEY.name },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const key = item[WAITLIST_TABLE_KEY.name];
        if (typeof key === 'string') addresses.add(key);
      }
    }
  } finally {
    store.destroy();
  }
  return addresses;
}
