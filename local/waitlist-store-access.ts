import { existsSync } from 'node:fs';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { emailKey } from '#contract/email-address';
import { IN_MEMORY } from './data-dir';
import { LOCAL_TABLE_NAME, runningStoreEndpoint, startLocalDynamoDB } from './local-dynamodb';

/** Which waitlist the operator works on: the AWS table, or the local store in a data folder. */
export type WaitlistTarget =
  | { kind: 'aws'; tableName: string; region?: string }
  | { kind: 'local'; dataDir: string };

export interface WaitlistTable {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Where the table is, in words, for error messages. */
  where: string;
  close(): Promise<void>;
}

/** A problem the operator can fix, said in one sentence. */
export class WaitlistToolError extends Error {
  override name = 'WaitlistToolError';
}

const documentClient = (config: DynamoDBClientConfig) =>
  DynamoDBDocumentClient.from(new DynamoDBClient(config));

/** The local store needs no real credentials; these keep the SDK from looking for any. */
const localClient = (endpoint: string) =>
  documentClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { requestTimeout: 10_000 },
  });

/**
 * Opens the waitlist table. The local store is reached through the running store's endpoint when a runner
 * has the folder open (only one process can); otherwise the folder is opened here, and closed by `close`.
 */
export async function openWaitlistTable(target: WaitlistTarget): Promise<WaitlistTable> {
  if (target.kind === 'aws') {
    const client = documentClient(target.region ? { region: target.region } : {});
    try {
      await client.config.region();
    } catch {
      client.destroy();
      throw new WaitlistToolError('no AWS region found (pass --region or set AWS_REGION)');
    }
    const where = `region ${target.region ?? process.env.AWS_REGION ?? '(default)'}`;
    return { client, tableName: target.tableName, where, close: async () => client.destroy() };
  }

  const { dataDir } = target;
  if (dataDir === IN_MEMORY) {
    throw new WaitlistToolError('DATA_DIR is :memory:, which keeps no waitlist to work on');
  }
  if (!existsSync(dataDir)) {
    throw new WaitlistToolError(`there is no local waitlist in ${dataDir} (set DATA_DIR or --data-dir)`);
  }
  const where = `the local store in ${dataDir}`;
  const running = runningStoreEndpoint(dataDir);
  if (running) {
    const client = localClient(running);
    return { client, tableName: LOCAL_TABLE_NAME, where, close: async () => client.destroy() };
  }
  let store: Awaited<ReturnType<typeof startLocalDynamoDB>>;
  try {
    store = await startLocalDynamoDB(dataDir);
  } catch (error) {
    // A runner may have opened the folder a moment ago: go through it.
    const started = runningStoreEndpoint(dataDir);
    if (!started) throw new WaitlistToolError((error as Error).message);
    const client = localClient(started);
    return { client, tableName: LOCAL_TABLE_NAME, where, close: async () => client.destroy() };
  }
  const client = localClient(store.endpoint);
  return {
    client,
    tableName: LOCAL_TABLE_NAME,
    where,
    close: async () => {
      client.destroy();
      await store.close();
    },
  };
}

/** How many records the table holds, counted page by page. */
export async function countRecords(table: WaitlistTable): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({ TableName: table.tableName, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** Every record in the table, read page by page. */
export async function allRecords(table: WaitlistTable): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({ TableName: table.tableName, ExclusiveStartKey: startKey }),
    );
    records.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return records;
}

/**
 * The keys a record for `address` may be under: its canonical identity (#contract/email-address, as the
 * API stores it), and the address trimmed and lower-cased, as records made before that rule were keyed.
 */
export function storedKeys(address: string): string[] {
  const earlierKey = address.trim().toLowerCase();
  return [...new Set([emailKey(address) ?? earlierKey, earlierKey])];
}

/** Deletes the record for `address`, however it is typed; true when there was one. */
export async function forgetRecord(table: WaitlistTable, address: string): Promise<boolean> {
  let existed = false;
  for (const key of storedKeys(address)) {
    const deleted = await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: { email: key }, ReturnValues: 'ALL_OLD' }),
    );
    existed ||= deleted.Attributes !== undefined;
  }
  return existed;
}
