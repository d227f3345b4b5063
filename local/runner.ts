import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIPv6, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DeleteCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { API_PREFIX, isApiRoute } from '#contract/api-routes';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { readInlineHashes, securityHeaders } from '#contract/security-headers';
import { VISITOR_TABLE_EXPIRY_ATTRIBUTE, VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { setStoreClient } from '../functions/store/store-client';
import { clientPostsPerMinuteFrom, limitClientPosts } from './client-rate-limit';
import { IN_MEMORY } from './data-dir';
import { createLambdaHttpAdapter, splitTarget } from './lambda-http-adapter';
import { ensureWaitlistTable, OlderFolderError, startLocalDynamoDB } from './local-dynamodb';
import { startLocalMail } from './local-mail';
import * as local from './local-store-client';
import { createStaticSite } from './static-site';

export type LocalRunner = Awaited<ReturnType<typeof startLocalRunner>>;

export const runnerUrl = (host: string, port: number) =>
  `http://${isIPv6(host) ? `[${host}]` : host}:${port}/`;

/** The runner's own dynalite in a folder (or `:memory:`), or a running endpoint it never stops. */
type StoreLocation = { dataDir: string; storeEndpoint?: never } | { storeEndpoint: string; dataDir?: never };

/** Tables dynalite keeps past their time (it has no time to live): key and expiry attribute. */
const SWEPT = [
  [local.LOCAL_MAIL_LIMIT_TABLE_NAME, MAIL_LIMIT_TABLE_KEY.name, MAIL_LIMIT_EXPIRY_ATTRIBUTE],
  [local.LOCAL_VISITOR_TABLE_NAME, VISITOR_TABLE_KEY.name, VISITOR_TABLE_EXPIRY_ATTRIBUTE],
] as const;

// `/api/*`, mails to an outbox; one per process, as the handler reads its settings when first imported.
export async function startLocalWaitlistApi(
  options: StoreLocation & { confirmPagesDir: string; siteUrl: string },
) {
  const { dataDir, storeEndpoint } = options;
  const store =
    storeEndpoint !== undefined
      ? { endpoint: storeEndpoint, close: async () => {} }
      : await startLocalDynamoDB(options.dataDir);
  const tableName = process.env.TABLE_NAME ?? local.LOCAL_TABLE_NAME;
  try {
    Object.assign(process.env, local.localStoreEnvironment(store.endpoint, tableName));
    await ensureWaitlistTable(store.endpoint, tableName);
  } catch (error) {
    await store.close();
    const where = storeEndpoint ? `the store at ${storeEndpoint}` : `the data folder ${dataDir}`;
    throw new Error(
      error instanceof OlderFolderError
        ? `${where}: ${error.message} (set DATA_DIR to a new folder)`
        : `${where} did not answer`,
    );
  }
  process.env.CONFIRM_PAGES_DIR = options.confirmPagesDir;
  process.env.LEAVE_PAGES_DIR = options.confirmPagesDir;
  const outboxDir =
    dataDir && dataDir !== IN_MEMORY
      ? join(dataDir, 'outbox')
      : mkdtempSync(join(tmpdir(), 'mandje-outbox-'));
  const mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName,
    outboxDir,
    siteUrl: options.siteUrl,
  });

  // The handlers' client, on the store's socket: the Lambda code knows only AWS's.
  const client = local.localDocumentClient(store.endpoint, {
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  });
  setStoreClient(client);
  // Expired items are deleted at start and hourly, each only if still expired.
  const sweep = () =>
    Promise.all(
      SWEPT.map(async ([TableName, key, expiry]) => {
        const expired = {
          ExpressionAttributeNames: { '#e': expiry },
          ExpressionAttributeValues: { ':now': Date.now() / 1000 },
        };
        const scan = { TableName, FilterExpression: '#e <= :now', ...expired };
        for await (const page of paginateScan({ client }, scan))
          for (const item of page.Items ?? []) {
            const only = { ConditionExpression: '#e <= :now', ...expired };
            const remove = new DeleteCommand({ TableName, Key: { [key]: item[key] }, ...only });
            await client.send(remove).catch(() => {});
          }
      }),
    ).catch(() => {});
  let sweeping = sweep();
  const sweeps = setInterval(() => (sweeping = sweep()), 60 * 60 * 1000).unref();

  const { handler: api } = await import('../functions/api/handler');
  return {
    outboxDir,
    serve: createLambdaHttpAdapter(async (event) => {
      const result = await api(event);
      // The stream's part on AWS: the mailer sends what a signup or a leave-link request asked for.
      if (event.rawPath === WAITLIST_PATH || event.rawPath === LEAVE_REQUEST_PATH)
        mail.afterSignup(event, result);
      return result;
    }),
    close: async () => {
      clearInterval(sweeps);
      await Promise.all([sweeping, mail.close()]);
      await store.close();
    },
  };
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

// The whole product on one machine, routed as CloudFront routes it.
export async function startLocalRunner(
  options: StoreLocation & {
    port: number;
    /** Default 127.0.0.1 (this machine only); `0.0.0.0` or `::` opens it to every network. */
    host?: string;
    distDir: string;
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    /** As AWS WAF limits them: default SIGNUP_RATE_LIMIT, else CLIENT_POSTS_PER_MINUTE; 0 turns it off. */
    clientPostsPerMinute?: number;
  },
) {
  // Read before anything starts, so a bad SIGNUP_RATE_LIMIT stops the runner at once.
  const { clientPostsPerMinute = clientPostsPerMinuteFrom(process.env), host = '127.0.0.1' } = options;
  // CloudFront's policy, with the built pages' inline-element hashes (throws if stale).
  const headers = securityHeaders(readInlineHashes(options.distDir));
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  let route: Route | undefined;
  let stopping = false;
  let portClosed = false;
  const handlers = new Set<Promise<void>>();
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      // Node checks both timeouts on this interval (30 s by default): a slow client would linger past them.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (request, response) => {
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      // Still starting: the store is not there yet.
      if (!route) return void response.writeHead(503, { 'retry-after': '1' }).end();
      if (stopping) response.setHeader('connection', 'close');
      // A keep-alive connection whose answer just went out is idle now: once the port is closed, close it.
      response.once('close', () => portClosed && server.closeIdleConnections());
      const handled = route(request, response)
        .catch(() => {
          // A half-sent answer can only be cut off.
          if (response.headersSent) response.destroy();
          else response.writeHead(500, { connection: 'close' }).end('Internal Server Error');
        })
        .finally(() => handlers.delete(handled));
      handlers.add(handled);
    },
  );

  // Answers requests in progress for up to `graceMs`, then cuts the rest; resolves once none uses the store.
  async function closeServer(graceMs: number, onRefusing?: () => void): Promise<void> {
    stopping = true;
    const graceOver = delay(graceMs, undefined, { ref: false });
    // Node takes queued connections in order: once one of the server's own, made now, is taken, so is every
    // connection that reached the machine before the stop.
    const { address, port } = server.address() as AddressInfo;
    const marker = connect(port, address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address);
    await new Promise<void>((resolve) => {
      server.on('connection', (socket: Socket) => {
        if (socket.remotePort !== marker.localPort || socket.remoteAddress !== marker.localAddress) return;
        socket.destroy();
        resolve();
      });
      marker.once('error', () => resolve());
      graceOver.then(() => resolve());
    });
    marker.destroy();
    // One more network poll: a connection just taken is read, so Node does not close it as idle.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    // Closes the port, and with it every connection with no request in progress.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    portClosed = true;
    onRefusing?.();
    await Promise.race([closed, graceOver]);
    server.closeAllConnections();
    // Handlers whose client was cut off still finish their store call (bounded by the SDK's timeouts).
    await Promise.allSettled([closed, ...handlers]);
  }

  // The port first: if it is taken, say so before anything else is started.
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new Error(`port ${options.port} is already in use (set PORT to use another)`));
      else if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(error.code ?? ''))
        reject(new Error(`${host} is not an address of this machine (set HOST to one, or leave it unset)`));
      else reject(error);
    });
    server.listen(options.port, host, () => resolve(server.address() as AddressInfo));
  });
  const listensOnAllInterfaces = address.address === '0.0.0.0' || address.address === '::';
  const url = runnerUrl(listensOnAllInterfaces ? 'localhost' : host, address.port);

  const site = createStaticSite(options.distDir);
  const [api] = await Promise.all([
    startLocalWaitlistApi({ ...options, confirmPagesDir: join(options.distDir, '.mandje'), siteUrl: url }),
    site.warmUp(),
  ]).catch(async (error) => {
    await closeServer(0);
    throw error;
  });
  // The limit comes first, as WAF does at the edge: a client past it never reaches the API.
  const serveApi = limitClientPosts(clientPostsPerMinute, api.serve);
  route = (request, response) => {
    const [path] = splitTarget(request.url);
    if (!path.startsWith(API_PREFIX)) return site.serve(request, response);
    // Any other spelling of an API path passes no limit, and the function answers it 404 (#contract/api-routes).
    return isApiRoute(path) ? serveApi(request, response) : api.serve(request, response);
  };

  let closing: Promise<void> | undefined;
  return {
    url,
    address,
    listensOnAllInterfaces,
    outboxDir: api.outboxDir,
    /** Lets requests in progress finish (ten seconds at most), then closes the store. */
    close: ({ onRefusing }: { onRefusing?: () => void } = {}) => {
      closing ??= closeServer(10_000, onRefusing).then(() => api.close());
      return closing;
    },
  };
}

/** Stops the runner cleanly on SIGINT or SIGTERM and exits 0 (1 if closing failed); a second exits at once. */
export function closeOnSignals(runner: LocalRunner): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    // Said once the port is closed, so once this line is out, new connections are refused.
    const onRefusing = () =>
      console.log(
        `Mandje is stopping (${signal}): finishing requests in progress; send it again to stop at once.`,
      );
    runner.close({ onRefusing }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
