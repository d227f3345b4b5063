import { Agent } from 'node:http';
import { connect } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** How every function here reaches the waitlist table: its name and a document client. */
export interface WaitlistStore {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** A setting the function cannot work without: read at start-up, failing at once when it is missing. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

/**
 * An HTTP agent whose every connection goes to the Unix socket at `socketPath`: how the local store is
 * reached, so that only the user who may open the socket's folder can read the waitlist.
 */
export function unixSocketAgent(socketPath: string): Agent {
  const agent = new Agent({ keepAlive: true });
  agent.createConnection = () => connect(socketPath);
  return agent;
}

/** One store per table and endpoint: the API function's handlers share one client, and its connections. */
const stores = new Map<string, WaitlistStore>();

/**
 * The table named by TABLE_NAME, with a client that fails within a few seconds, well inside the page's own
 * 10 s patience, rather than hang. Created once per container and reused by every request it serves.
 * STORE_SOCKET is set only on one machine (local/local-store-client.ts): the local store's Unix socket,
 * with AWS_ENDPOINT_URL_DYNAMODB at http://localhost. Lambda never has it.
 */
export function storeFromEnvironment(): WaitlistStore {
  const tableName = requiredEnv('TABLE_NAME');
  const socketPath = process.env.STORE_SOCKET;
  const key = [tableName, socketPath, process.env.AWS_ENDPOINT_URL_DYNAMODB].join('\n');
  const known = stores.get(key);
  if (known) return known;
  const store = {
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

/**
 * The longest a request waits for the store, retries included: the visitor hears "try again" well inside
 * the page's own 10 s patience and the function's 10 s timeout, instead of an API Gateway error page.
 */
export const STORE_DEADLINE_MS = 5_000;

class StoreDeadlineExceeded extends Error {
  override name = 'StoreDeadlineExceeded';
}

/** Runs `work` against a deadline; when it passes, `work`'s signal aborts the SDK's request and retries. */
export async function withinDeadline<T>(work: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreDeadlineExceeded(`no answer from the store within ${STORE_DEADLINE_MS} ms`);
      controller.abort(error);
      reject(error);
    }, STORE_DEADLINE_MS);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
