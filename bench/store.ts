/** The store the benchmarks measure against: the local runner's dynalite, with the production table shape. */
import { ensureWaitlistTable, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME } from '../local/local-store-client';

export const BENCH_TABLE_NAME = LOCAL_TABLE_NAME;

/** dynalite on `dataDir` (a folder, or `:memory:`); a folder a runner wrote keeps its table. */
export async function startBenchStore(dataDir: string) {
  const dynamo = await startLocalDynamoDB(dataDir);
  await ensureWaitlistTable(dynamo.endpoint, BENCH_TABLE_NAME).catch(async (error) => {
    await dynamo.close();
    throw error;
  });
  return dynamo;
}
