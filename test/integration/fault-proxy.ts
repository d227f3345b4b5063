import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * - `forward`: a plain TCP relay.
 * - `down`: the store is gone: every open connection is cut, and each new one as soon as it opens.
 * - `flaky`: every connection is used once, and every other one fails: half of those are cut before
 *   the request reaches the store, half after the store did the work but before its answer comes back.
 */
export type FaultMode = 'forward' | 'down' | 'flaky';

export interface FaultProxy {
  /** Where the runner should send its store calls. */
  endpoint: string;
  setMode(mode: FaultMode): void;
  /** Connections failed on purpose so far, by when they were cut. */
  readonly cut: { beforeRequest: number; afterStoreAnswered: number };
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of dynalite (on its socket) that fails the runner's store calls on demand, the way a network or
 * an overloaded store would, so the end-to-end tests can inject faults without touching the runner.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  let mode: FaultMode = 'forward';
  let connections = 0;
  const cut = { beforeRequest: 0, afterStoreAnswered: 0 };
  const open = new Set<Socket>();

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  function relay(client: Socket, { loseAnswer, singleUse }: { loseAnswer: boolean; singleUse: boolean }) {
    const store = connect(upstream);
    track(store);
    client.pipe(store);
    store.on('data', (chunk: Buffer) => {
      if (loseAnswer) {
        cut.afterStoreAnswered++;
        client.resetAndDestroy();
        store.destroy();
        return;
      }
      client.write(chunk);
      // One answer per connection, so that every store call opens a connection and meets the odds.
      if (singleUse) {
        client.end();
        store.end();
      }
    });
    store.once('close', () => client.destroy());
    client.once('close', () => store.destroy());
  }

  function dropConnections() {
    for (const socket of open) socket.destroy();
  }

  const server = createServer((client) => {
    track(client);
    const index = connections++;
    if (mode === 'down') return client.destroy();
    if (mode === 'forward') return relay(client, { loseAnswer: false, singleUse: false });
    if (index % 2 === 0) return relay(client, { loseAnswer: false, singleUse: true });
    if (index % 4 === 1) {
      cut.beforeRequest++;
      client.resetAndDestroy();
      return;
    }
    relay(client, { loseAnswer: true, singleUse: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setMode: (next) => {
      mode = next;
      // Connections kept alive from before would not meet the new mode.
      dropConnections();
    },
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        server.close(() => resolve());
      }),
  };
}
