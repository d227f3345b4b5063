/**
 * The store the benchmarks measure against: dynalite with the production table shape, clients pointed at
 * it explicitly, and a way to read back which addresses it holds.
 */
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import type { WaitlistStore } from '../functions/store/store-client';
import { ensureWaitlistTable, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreClient, localStoreEnvironment } from '../local/local-store-client';

/** The table every benchmark writes to: the local runner's, which runner processes are given as TABLE_NAME. */
export const BENCH_TABLE_NAME = LOCAL_TABLE_NAME;

/** What a process needs to find the local store, as the Lambda runtime would give it: for child processes. */
export const storeEnvironment = (endpoint: string) => localStoreEnvironment(endpoint, BENCH_TABLE_NAME);

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
    await ensureWaitlistTable(dynamo.endpoint, BENCH_TABLE_NAME);
  } catch (error) {
    await dynamo.close();
    throw error;
  }
  return dynamo;
}

/** A document client for the store, configured like the handler's, but with the endpoint given here. */
export function createStoreClient(endpoint: string): WaitlistStore & { destroy(): void } {
  const client = localStoreClient(endpoint, {
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  });
  return {
    client: DynamoDBDocumentClient.from(client),
    tableName: BENCH_TABLE_NAME,
    destroy: () => client.destroy(),
  };
}

/** Every key (the address's canonical identity) in the waitlist table, read with a paginated Scan of keys only. */
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
