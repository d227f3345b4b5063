/** The store the benchmarks measure against: dynalite with the production table shape. */
import { ensureWaitlistTable, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreEnvironment } from '../local/local-store-client';

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
