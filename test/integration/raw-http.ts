import { request } from 'node:http';
import { connect } from 'node:net';

/**
 * A plain TCP connection to `url`'s host and port, for requests no HTTP client would send: broken request
 * lines, lying lengths, bodies that trickle or stop halfway. `status` resolves once a header block has
 * arrived; `answer` waits for the server to close the connection, or `waitMs` (then the client closes it),
 * and gives the first response (status 0: none) and whether the server closed it.
 */
export async function openRaw(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let raw = '';
  let headed = () => {};
  const status = new Promise<number>((resolve) => {
    headed = () => resolve(parse(raw).status);
  });
  socket.on('data', (chunk: Buffer) => {
    raw += chunk.toString('latin1');
    if (raw.includes('\r\n\r\n')) headed();
  });
  // A reset after the answer is part of what is being observed, not a failure of the test's client.
  socket.on('error', () => {});
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  return {
    socket,
    status,
    send: (bytes: string | Buffer) => void (socket.destroyed || socket.write(bytes)),
    answer: async (waitMs = 5_000) => {
      const closedByServer = await Promise.race([
        closed,
        new Promise<boolean>((r) => setTimeout(r, waitMs, false)),
      ]);
      socket.destroy();
      return { ...parse(raw), closedByServer };
    },
  };
}

function parse(raw: string) {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = (end === -1 ? raw : raw.slice(0, end)).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 0);
  return { status, headers, rest: end === -1 ? '' : raw.slice(end + 4) };
}

/** Sends `bytes` on a fresh connection and waits for the server to answer and close (or `waitMs`). */
export async function rawRequest(url: string, bytes: string | Buffer, waitMs?: number) {
  const exchange = await openRaw(url);
  exchange.send(bytes);
  return exchange.answer(waitMs);
}

/** A request as a browser would frame it, with Content-Length right. */
export function httpRequest(method: string, path: string, body?: string): string {
  const length = body === undefined ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`;
  return `${method} ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n${length}\r\n${body ?? ''}`;
}

type Options = { method?: string; headers?: Record<string, string>; body?: string; from?: string };

/** One request with node:http, from loopback address `from` if given: the bytes as sent, not decompressed. */
export function plainRequest(url: string, { method = 'GET', headers = {}, body, from }: Options = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    // The path as written: a URL object would resolve its dot segments.
    const { hostname: host, port, origin } = new URL(url);
    const options = {
      host,
      port,
      path: url.slice(origin.length),
      method,
      headers,
      agent: false,
      localAddress: from,
    };
    const outgoing = request(options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject).end(body);
  });
}
