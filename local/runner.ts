import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type LocalWaitlistApi, startLocalWaitlistApi } from './local-waitlist-api';
import { createStaticSite } from './static-site';

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

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * The whole product on one machine: the built page, and `/api/*` served by the real Lambda handler
 * against dynalite, as CloudFront routes them in production.
 */
export async function startLocalRunner({ port, dataDir, distDir }: LocalRunnerOptions): Promise<LocalRunner> {
  // Take the port first: if it is taken, say so before anything else is started.
  let route: Route | undefined;
  const server = createServer((request, response) => {
    if (!route) {
      response.writeHead(503, { 'retry-after': '1' }).end();
      return;
    }
    route(request, response).catch(() => {
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

  const site = createStaticSite(distDir);
  let api: LocalWaitlistApi;
  try {
    // Every file is compressed while the store starts, so no visitor waits for Brotli.
    [api] = await Promise.all([startLocalWaitlistApi(dataDir), site.warmUp()]);
  } catch (error) {
    await closeServer();
    throw error;
  }
  route = (request, response) =>
    (request.url ?? '/').startsWith('/api/') ? api.serve(request, response) : site.serve(request, response);

  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://localhost:${actualPort}/`,
    close: async () => {
      await closeServer();
      await api.close();
    },
  };
}
