import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIPv6, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readInlineHashes, securityHeaders } from '#contract/security-headers';
import { clientPostsPerMinuteFrom, createClientRateLimit, limitClientPosts } from './client-rate-limit';
import { IN_MEMORY } from './data-dir';
import { type LocalWaitlistApi, startLocalWaitlistApi } from './local-waitlist-api';
import { createStaticSite } from './static-site';

/** Where the waitlist is kept: the runner's own dynalite, or a DynamoDB endpoint that is already running. */
export type LocalStoreOptions =
  | {
      /** A folder for the store's files, or `:memory:`. The runner starts and stops the store. */
      dataDir: string;
      storeEndpoint?: never;
    }
  | {
      /** A running DynamoDB-compatible endpoint; the runner creates the table if needed, never stops it. */
      storeEndpoint: string;
      dataDir?: never;
    };

export type LocalRunnerOptions = LocalStoreOptions & {
  port: number;
  /**
   * The address to listen on (default 127.0.0.1: this machine only). `0.0.0.0` or `::` opens the runner to
   * every network the machine is on.
   */
  host?: string;
  distDir: string;
  /** How long close() lets requests in progress finish before it cuts their connections. */
  shutdownGraceMs?: number;
  /** How long a client may take to send its headers, and its whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Where confirmation mails go: default `outbox/` in the data folder, or a temporary folder. */
  outboxDir?: string;
  /**
   * POSTs to `/api/*` one client may send per minute before it gets 429, as AWS WAF limits them in
   * production: default SIGNUP_RATE_LIMIT, else CLIENT_POSTS_PER_MINUTE; 0 turns the limit off.
   */
  clientPostsPerMinute?: number;
};

export interface LocalRunner {
  /** Where to open it: `http://<host>:<port>/`, or `http://localhost:<port>/` when it listens everywhere. */
  url: string;
  /** The address and port the server is bound to, as the system reports them. */
  address: AddressInfo;
  /** Where the mails are written. */
  outboxDir: string;
  /** True when it accepts connections on every interface of the machine, not on one address only. */
  listensOnAllInterfaces: boolean;
  /**
   * Stops accepting, lets requests in progress finish (up to the grace period), then closes the store.
   * `onRefusing` is called once the port is closed: from then on new connections are refused.
   */
  close(options?: { onRefusing?: () => void }): Promise<void>;
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** A signup is under a kilobyte: ten seconds for headers and thirty for the whole request is generous. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** The data folder's outbox/, or a fresh temporary folder when nothing is kept on disk here. */
function defaultOutboxDir(options: LocalStoreOptions): string {
  return options.dataDir !== undefined && options.dataDir !== IN_MEMORY
    ? join(options.dataDir, 'outbox')
    : mkdtempSync(join(tmpdir(), 'mandje-outbox-'));
}

/** A runner for one person at a time: nothing off this machine may reach it unless asked for. */
export const DEFAULT_HOST = '127.0.0.1';

/** The addresses the system reports for a server bound to every interface. */
const ALL_INTERFACES = new Set(['0.0.0.0', '::']);

/** Answers 500 if nothing was sent yet; a half-sent answer can only be cut off. */
function answerUnexpectedError(response: ServerResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(500, {
    'content-type': 'text/plain; charset=utf-8',
    connection: 'close',
  });
  response.end('Internal Server Error');
}

/** The reasons an address cannot be listened on that the person starting the runner can fix. */
function explainListenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new Error(`port ${port} is already in use (set PORT to use another)`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return new Error(`${host} is not an address of this machine (set HOST to one, or leave it unset)`);
  }
  return error;
}

async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(explainListenError(error, host, port)));
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}

/** The runner's base URL for `host`, with an IPv6 literal in brackets: `::1` gives `http://[::1]:3000/`. */
export function runnerUrl(host: string, port: number): string {
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}/`;
}

/**
 * Resolves once `server` has taken in every connection the kernel completed before the call, or when
 * `signal` aborts. Node takes one connection off the listen queue per turn of its event loop, so under
 * load the queue holds connections, their whole request sent, for seconds; closing the port then resets
 * every one of them. The queue is first in, first out: a connection of the server's own, made now, is
 * taken only after all of them. It is closed as soon as it is taken.
 */
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

/**
 * Resolves after the event loop has polled the network once more: a connection taken in the last turn is
 * read, so its request is in progress rather than idle (Node closes idle connections with the port).
 */
const pollOnce = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(() => resolve())));

/**
 * An HTTP server that can be drained: close() takes in the connections already waiting, stops accepting,
 * closes idle keep-alive connections, asks clients of requests in progress to close after their answer,
 * and waits for those answers up to `graceMs` from the stop before it cuts the connections that are left.
 * It resolves once every request handler has settled, so nothing still uses the store when it is closed
 * next.
 */
function createDrainableServer(options: {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Sent with every answer, as CloudFront's response-headers policy adds them in production. */
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
      // Node checks both timeouts on this interval (30 s by default), which would let a slow client
      // linger long past them.
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
        .catch(() => answerUnexpectedError(response))
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
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  // Read before anything starts, so a bad SIGNUP_RATE_LIMIT stops the runner at once.
  const clientLimit = createClientRateLimit(
    options.clientPostsPerMinute ?? clientPostsPerMinuteFrom(process.env),
  );
  const http = createDrainableServer({
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // The same policy CloudFront sends, with the built pages' inline-element hashes (throws if stale).
    headers: securityHeaders(readInlineHashes(options.distDir)),
  });
  const host = options.host ?? DEFAULT_HOST;
  // Take the port first: if it is taken, say so before anything else is started.
  const address = await listen(http.server, options.port, host);
  // A server on every interface has no one address to open; localhost always reaches it.
  const listensOnAllInterfaces = ALL_INTERFACES.has(address.address);

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
          outboxDir: options.outboxDir ?? defaultOutboxDir(options),
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
      closing ??= http.close(graceMs, onRefusing).then(() => api.close());
      return closing;
    },
  };
}

/**
 * Stops the runner cleanly on SIGINT or SIGTERM and exits 0 (1 if closing failed); a second signal
 * exits at once, for when waiting is not wanted.
 */
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
