import { Agent } from 'node:http';
import { connect } from 'node:net';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

export type WaitlistStore = { client: DynamoDBDocumentClient; tableName: string };

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

/** The local store is reached by Unix socket: only who may open its folder can read the waitlist. */
export function unixSocketAgent(socketPath: string): Agent {
  const agent = new Agent({ keepAlive: true });
  agent.createConnection = () => connect(socketPath);
  return agent;
}

const stores = new Map<string, WaitlistStore>();

/** One client per table and endpoint, shared by the handlers. STORE_SOCKET is set only locally. */
export function storeFromEnvironment(): WaitlistStore {
  const tableName = requiredEnv('TABLE_NAME');
  const socketPath = process.env.STORE_SOCKET;
  const key = [tableName, socketPath, process.env.AWS_ENDPOINT_URL_DYNAMODB].join('\n');
  const store = stores.get(key) ?? {
    tableName,
    client: DynamoDBDocumentClient.from(
      new DynamoDBClient({
        maxAttempts: 3,
        requestHandler: {
          connectionTimeout: 1_000,
          requestTimeout: 2_000,
          ...(socketPath ? { httpAgent: unixSocketAgent(socketPath) } : {}),
        },
      }),
    ),
  };
  stores.set(key, store);
  return store;
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
