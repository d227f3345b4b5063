import type { IncomingMessage, ServerResponse } from 'node:http';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { createLambdaHttpAdapter } from './lambda-http-adapter';
import { ensureWaitlistTable, startLocalDynamoDB } from './local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreEnvironment } from './local-store-client';

export interface LocalWaitlistApi {
  /** Answers `/api/*` requests: the waitlist through the Lambda handler, anything else 404. */
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * Points the AWS SDK at the local store (local-store-client.ts). The handler reads this when it is first
 * imported, exactly as it reads its environment in Lambda. A TABLE_NAME already set is kept.
 */
function pointAwsSdkAtLocalStore(endpoint: string): string {
  const tableName = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;
  Object.assign(process.env, localStoreEnvironment(endpoint, tableName));
  return tableName;
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify({ error: 'not_found' }));
}

/** The runner's own dynalite in a data folder, or a DynamoDB endpoint someone else runs (and stops). */
export type LocalStoreLocation = { dataDir: string } | { endpoint: string };

/** Starts dynalite for a data folder; an endpoint given is used as it is, and left running on close. */
async function openStore(
  location: LocalStoreLocation,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  if ('endpoint' in location) return { endpoint: location.endpoint, close: async () => {} };
  return startLocalDynamoDB(location.dataDir);
}

const describeStore = (location: LocalStoreLocation) =>
  'endpoint' in location
    ? `the store at ${location.endpoint} did not answer`
    : `the store in ${location.dataDir} did not answer (is another program using that data folder?)`;

/**
 * The waitlist API on this machine: dynalite with the production table shape, and the real Lambda handler
 * behind an API Gateway-shaped adapter. One per process: the handler binds to the store it finds when it
 * is first imported, as a Lambda container does.
 */
export async function startLocalWaitlistApi(location: LocalStoreLocation): Promise<LocalWaitlistApi> {
  const store = await openStore(location);
  try {
    await ensureWaitlistTable(store.endpoint, pointAwsSdkAtLocalStore(store.endpoint));
  } catch {
    await store.close();
    throw new Error(describeStore(location));
  }
  const { handler } = await import('../functions/waitlist/handler');
  const adapter = createLambdaHttpAdapter(handler);
  return {
    serve: async (request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === WAITLIST_PATH) await adapter(request, response);
      else notFound(response);
    },
    close: () => store.close(),
  };
}
