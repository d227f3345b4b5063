import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as ddb from '@aws-sdk/lib-dynamodb';
import { requiredEnv } from '../strict-input';

export type WaitlistStore = { client: ddb.DynamoDBDocumentClient; tableName: string };

/** Retries included; well inside the page's and the function's 10 s, so the visitor hears "try again". */
export const STORE_DEADLINE_MS = 5_000;

let sharedClient: ddb.DynamoDBDocumentClient | undefined;

/** The handlers' table (TABLE_NAME), through one client they share. */
export function storeFromEnvironment(): WaitlistStore {
  const requestHandler = { connectionTimeout: 1_000, requestTimeout: 2_000 };
  sharedClient ??= ddb.DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 3, requestHandler }));
  return { tableName: requiredEnv('TABLE_NAME'), client: sharedClient };
}

/** The client the handlers imported after this use, in place of one made here: the runner's (local/). */
export function setStoreClient(client: ddb.DynamoDBDocumentClient): void {
  sharedClient = client;
}

export async function unlessConditionFails<T>(write: Promise<T>): Promise<{ output: T } | undefined> {
  try {
    return { output: await write };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

export async function readItem(store: WaitlistStore, Key: Record<string, string>, abortSignal?: AbortSignal) {
  const get = new ddb.GetCommand({ TableName: store.tableName, Key, ConsistentRead: true });
  return (await store.client.send(get, { abortSignal })).Item;
}

/** Whether the item was put: false when its condition failed. */
export async function putIf(
  store: WaitlistStore,
  input: Omit<ddb.PutCommandInput, 'TableName'>,
  abortSignal?: AbortSignal,
) {
  const put = new ddb.PutCommand({ TableName: store.tableName, ...input });
  return (await unlessConditionFails(store.client.send(put, { abortSignal }))) !== undefined;
}

/** Updates one item of the table; undefined when the update's condition, if it has one, failed. */
export async function updateIf(
  store: WaitlistStore,
  email: string,
  input: Omit<ddb.UpdateCommandInput, 'TableName' | 'Key'>,
  abortSignal?: AbortSignal,
) {
  const update = new ddb.UpdateCommand({ TableName: store.tableName, Key: { email }, ...input });
  return (await unlessConditionFails(store.client.send(update, { abortSignal })))?.output;
}
