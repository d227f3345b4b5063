import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIPv6, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readInlineHashes, securityHeaders } from '#contract/security-headers';
import { clientPostsPerMinuteFrom, createClientRateLimit, limitClientPosts } from './client-rate-limit';
import { type LocalWaitlistApi, startLocalWaitlistApi } from './local-waitlist-api';
import { createStaticSite } from './static-site';

/** The runner's own dynalite in a folder (or `:memory:`), or a running endpoint it never stops. */
type LocalRunnerOptions = (
  | { dataDir: string; storeEndpoint?: never }
  | { storeEndpoint: string; dataDir?: never }
) & {
  port: number;
  /** Default 127.0.0.1 (this machine only); `0.0.0.0` or `::` opens it to every network. */
  host?: string;
  distDir: string;
  /** How long close() lets requests in progress finish before it cuts their connections. */
  shutdownGraceMs?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Default: `outbox/` in the data folder, or a temporary folder. */
  outboxDir?: string;
  /** As AWS WAF limits them: default SIGNUP_RATE_LIMIT, else CLIENT_POSTS_PER_MINUTE; 0 turns it off. */
  clientPostsPerMinute?: number;
};

export interface LocalRunner {
  /** `http://<host>:<port>/`, or `http://localhost:<port>/` when it listens everywhere. */
  url: string;
  address: AddressInfo;
  outboxDir: string;
  listensOnAllInterfaces: boolean;
  // Stops accepting, lets requests in progress finish (up to the grace period), then closes the store.
  // `onRefusing` is called once the port is closed.
  close(options?: { onRefusing?: () => void }): Promise<void>;
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** A runner for one person at a time: nothing off this machine may reach it unless asked for. */
export const DEFAULT_HOST = '127.0.0.1';

/** The runner's base URL for `host`, with an IPv6 literal in brackets: `::1` gives `http://[::1]:3000/`. */
export function runnerUrl(host: string, port: number): string {
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}/`;
}

// Resolves once `server` has taken in every connection queued before the call (or `signal` aborts). Node
// takes one connection off the listen queue per event-loop turn, so under load the queue holds whole
// requests for seconds, and closing the port would reset them all. The queue is first in, first out: a
// connection of the server's own, made now, is taken after all of them.
async function takeQueuedConnections(server: Server, signal: AbortSignal): Promise<void> {
  const { address, port } = server.address() as AddressInfo;
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  const marker = connect({ host, port });
  let onConnection: ((socket: Socket) => void) | undefined;
  try {
    await new Promise<void>((resolve) => {
      onConnection = (socket) => {
        if (socket.remotePort !== marker.localPort || socket.remoteAddress !== marker.localAddress) return;
        socket.destroy();
        resolve();
      };
      server.on('connection', onConnection);
      // Not even this process reaches the port: there is no queue to wait for.
      marker.once('error', () => resolve());
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    if (onConnection) server.off('connection', onConnection);
    marker.destroy();
  }
}

/** One more network poll: a connection just taken is read, so Node does not close it as idle. */
const pollOnce = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(() => resolve())));

// close() takes in the connections already waiting, stops accepting, closes idle keep-alive connections,
// answers the requests in progress with `connection: close` for up to `graceMs`, then cuts the rest. It
// resolves once every handler has settled, so nothing still uses the store when that is closed next.
function createDrainableServer(options: {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  headers: Record<string, string>;
}) {
  let route: Route | undefined;
  let stopping = false;
  let portClosed = false;
  const openResponses = new Set<ServerResponse>();
  const handlers = new Set<Promise<void>>();

  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default): a slow client would linger past them.
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
    (request, response) => {
      for (const [name, value] of Object.entries(options.headers)) response.setHeader(name, value);
      if (!route) {
        // Still starting: the store is not there yet.
        response.writeHead(503, { 'retry-after': '1' }).end();
        return;
      }
      if (stopping) response.setHeader('connection', 'close');
      openResponses.add(response);
      response.once('close', () => {
        openResponses.delete(response);
        // A keep-alive connection whose answer just went out is idle now: once the port is closed, close it.
        if (portClosed) server.closeIdleConnections();
      });
      const handled = route(request, response)
        .catch(() => {
          // A half-sent answer can only be cut off.
          if (response.headersSent) response.destroy();
          else
            response
              .writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
              .end('Internal Server Error');
        })
        .finally(() => handlers.delete(handled));
      handlers.add(handled);
    },
  );

  async function close(graceMs: number, onRefusing?: () => void): Promise<void> {
    stopping = true;
    for (const response of openResponses) {
      if (!response.headersSent) response.setHeader('connection', 'close');
    }
    const timer = new AbortController();
    const graceOver = delay(graceMs, undefined, { signal: timer.signal }).catch(() => {});
    // Every request that reached the machine before the stop is answered, however busy it is.
    const graceEnded = new AbortController();
    graceOver.then(() => graceEnded.abort());
    await takeQueuedConnections(server, graceEnded.signal);
    await pollOnce();
    // Closes the port, and with it every connection with no request in progress (Node counts those idle).
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    portClosed = true;
    onRefusing?.();
    await Promise.race([closed, graceOver]);
    timer.abort();
    server.closeAllConnections();
    await closed;
    // Handlers whose client was cut off still finish their store call (bounded by the SDK's timeouts).
    await Promise.allSettled([...handlers]);
  }

  return {
    server,
    close,
    serve(ready: Route) {
      route = ready;
    },
  };
}

/**
 * The whole product on one machine: the built page, and `/api/*` served by the real Lambda handler
 * against dynalite, as CloudFront routes them in production.
 */
export async function startLocalRunner(options: LocalRunnerOptions): Promise<LocalRunner> {
  // Read before anything starts, so a bad SIGNUP_RATE_LIMIT stops the runner at once.
  const clientLimit = createClientRateLimit(
    options.clientPostsPerMinute ?? clientPostsPerMinuteFrom(process.env),
  );
  const http = createDrainableServer({
    // A signup is under a kilobyte: these are generous.
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    // CloudFront's policy, with the built pages' inline-element hashes (throws if stale).
    headers: securityHeaders(readInlineHashes(options.distDir)),
  });
  const host = options.host ?? DEFAULT_HOST;
  // The port first: if it is taken, say so before anything else is started.
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    http.server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new Error(`port ${options.port} is already in use (set PORT to use another)`));
      else if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(error.code ?? '')) {
        reject(new Error(`${host} is not an address of this machine (set HOST to one, or leave it unset)`));
      } else reject(error);
    });
    http.server.listen(options.port, host, () => resolve(http.server.address() as AddressInfo));
  });
  const listensOnAllInterfaces = address.address === '0.0.0.0' || address.address === '::';

  const url = runnerUrl(listensOnAllInterfaces ? 'localhost' : host, address.port);

  const site = createStaticSite(options.distDir);
  let api: LocalWaitlistApi;
  try {
    [api] = await Promise.all([
      startLocalWaitlistApi(
        options.storeEndpoint !== undefined
          ? { endpoint: options.storeEndpoint }
          : { dataDir: options.dataDir },
        {
          confirmPagesDir: join(options.distDir, '.mandje'),
          siteUrl: () => url,
          outboxDir: options.outboxDir,
        },
      ),
      site.warmUp(),
    ]);
  } catch (error) {
    await http.close(0);
    throw error;
  }
  // The limit comes first, as WAF does at the edge: a client past it never reaches the API.
  const serveApi = limitClientPosts(clientLimit, (request, response) => api.serve(request, response));
  http.serve((request, response) => {
    if ((request.url ?? '/').startsWith('/api/')) return serveApi(request, response);
    return site.serve(request, response);
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    address,
    listensOnAllInterfaces,
    outboxDir: api.outboxDir,
    close: ({ onRefusing } = {}) => {
      closing ??= http.close(options.shutdownGraceMs ?? 10_000, onRefusing).then(() => api.close());
      return closing;
    },
  };
}

/** Stops the runner cleanly on SIGINT or SIGTERM and exits 0 (1 if closing failed); a second exits at once. */
export function closeOnSignals(runner: LocalRunner, log: (line: string) => void = console.log): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    // Said once the port is closed, so once this line is out, new connections are refused.
    const closed = runner.close({
      onRefusing: () =>
        log(`Mandje is stopping (${signal}): finishing requests in progress; send it again to stop at once.`),
    });
    closed.then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
