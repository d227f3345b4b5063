import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { WAITLIST_PATH } from '../functions/waitlist/waitlist-api';
import { SECURITY_HEADERS } from '../infra/security-headers';
import { createLambdaHttpAdapter } from './lambda-http-adapter';
import { ensureWaitlistTable, type LocalDynamoDB, startLocalDynamoDB } from './local-dynamodb';
import { createStaticSiteHandler } from './static-site';

export interface LocalRunnerOptions {
  port: number;
  /** A folder for the store's files, or `:memory:`. */
  dataDir: string;
  distDir: string;
}

export interface LocalRunner {
  url: string;
  close(): Promise<void>;
}

const LOCAL_TABLE_NAME = 'mandje-waitlist';

/**
 * Points the AWS SDK at the local store, with throwaway credentials so it never looks further for real
 * ones. The handler reads this when it is first imported, exactly as it reads its environment in Lambda.
 */
function pointAwsSdkAtLocalStore(endpoint: string): void {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
  process.env.AWS_REGION ??= 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.TABLE_NAME ??= LOCAL_TABLE_NAME;
}

function notFoundJson(_request: IncomingMessage, response: ServerResponse): Promise<void> {
  response.writeHead(404, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify({ error: 'not_found' }));
  return Promise.resolve();
}

/**
 * The whole product on one machine: the built page, and `/api/waitlist` served by the real Lambda handler
 * through an API Gateway-shaped adapter, writing to dynalite. One runner per process: the handler binds
 * to the store it finds when first imported, as a Lambda container does.
 */
export async function startLocalRunner({ port, dataDir, distDir }: LocalRunnerOptions): Promise<LocalRunner> {
  // Take the port first: if it is taken, say so before anything else is started.
  let routes: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
  const server = createServer((request, response) => {
    (routes ?? notFoundJson)(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Internal Server Error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} is already in use (set PORT to use another)`)
          : error,
      ),
    );
    server.listen(port, () => resolve());
  });
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  let dynamo: LocalDynamoDB;
  try {
    dynamo = await startLocalDynamoDB(dataDir);
  } catch (error) {
    await closeServer();
    throw error;
  }
  try {
    pointAwsSdkAtLocalStore(dynamo.endpoint);
    await ensureWaitlistTable(process.env.TABLE_NAME as string);
  } catch {
    await Promise.all([closeServer(), dynamo.close()]);
    throw new Error(`the store in ${dataDir} did not answer (is another Mandje using that data folder?)`);
  }

  const { handler } = await import('../functions/waitlist/handler');
  const api = createLambdaHttpAdapter(handler);
  const site = createStaticSiteHandler(distDir);
  routes = (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === WAITLIST_PATH) return api(request, response);
    if (path.startsWith('/api/')) return notFoundJson(request, response);
    return site(request, response);
  };

  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://localhost:${actualPort}/`,
    close: async () => {
      await closeServer();
      await dynamo.close();
    },
  };
}
