import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { requiredEnv } from '../strict-input';

export type WaitlistStore = { client: DynamoDBDocumentClient; tableName: string };

let sharedClient: DynamoDBDocumentClient | undefined;

/** The handlers' table (TABLE_NAME), through one client they share. */
export function storeFromEnvironment(): WaitlistStore {
  sharedClient ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
    }),
  );
  return { tableName: requiredEnv('TABLE_NAME'), client: sharedClient };
}

/** The client the handlers imported after this use, in place of one made here: the runner's (local/). */
export function setStoreClient(client: DynamoDBDocumentClient): void {
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

export const readItem = async (
  store: WaitlistStore,
  Key: Record<string, string>,
  abortSignal?: AbortSignal,
) =>
  (
    await store.client.send(new GetCommand({ TableName: store.tableName, Key, ConsistentRead: true }), {
      abortSignal,
    })
  ).Item;

/** Whether the item was put: false when its condition failed. */
export async function putIf(
  store: WaitlistStore,
  input: Omit<PutCommand['input'], 'TableName'>,
  abortSignal?: AbortSignal,
) {
  const put = new PutCommand({ TableName: store.tableName, ...input });
  return (await unlessConditionFails(store.client.send(put, { abortSignal }))) !== undefined;
}

/** Updates one item of the table; undefined when the update's condition, if it has one, failed. */
export async function updateIf(
  store: WaitlistStore,
  email: string,
  input: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
  abortSignal?: AbortSignal,
) {
  const update = new UpdateCommand({ TableName: store.tableName, Key: { email }, ...input });
  return (await unlessConditionFails(store.client.send(update, { abortSignal })))?.output;
}

/** Retries included; well inside the page's and the function's 10 s, so the visitor hears "try again". */
export const STORE_DEADLINE_MS = 5_000;
