import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of dynalite (on its socket) that fails the runner's store calls on demand, as a
 * network or an overloaded store would. `forward`: a plain relay; `down`: every connection is cut as soon as
 * it opens; `flaky`: every connection is used once, and every other one fails, half of those before the
 * request reaches the store, half after the store did the work but before its answer comes back.
 */
export async function startFaultProxy(upstream: string) {
  let mode: 'forward' | 'down' | 'flaky' = 'forward';
  let connections = 0;
  /** Connections failed on purpose so far, by when they were cut. */
  const cut = { beforeRequest: 0, afterStoreAnswered: 0 };
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket)).on('error', () => socket.destroy());
  };
  const dropConnections = () => {
    for (const socket of open) socket.destroy();
  };

  const server = createServer((client) => {
    track(client);
    const index = connections++;
    if (mode === 'down') return client.destroy();
    if (mode === 'flaky' && index % 4 === 1) {
      cut.beforeRequest++;
      return client.resetAndDestroy();
    }
    const loseAnswer = mode === 'flaky' && index % 4 === 3;
    const store = connect(upstream);
    track(store);
    client.pipe(store);
    store.on('data', (chunk: Buffer) => {
      if (loseAnswer) {
        cut.afterStoreAnswered++;
        client.resetAndDestroy();
        return store.destroy();
      }
      client.write(chunk);
      // One answer per connection, so that every store call opens a connection and meets the odds.
      if (mode === 'flaky') {
        client.end();
        store.end();
      }
    });
    store.once('close', () => client.destroy());
    client.once('close', () => store.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut,
    setMode(next: typeof mode) {
      mode = next;
      // Connections kept alive from before would not meet the new mode.
      dropConnections();
    },
    close: () => {
      dropConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
