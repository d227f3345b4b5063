import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the first response's status and headers, and everything read. */
export interface RawAnswer {
  /** 0 when no response arrived before the connection ended. */
  status: number;
  headers: Record<string, string>;
  /** Everything after the first response's header block (the body, possibly more responses). */
  rest: string;
  /** Whether the server closed the connection (rather than the wait running out). */
  closedByServer: boolean;
  elapsedMs: number;
}

export interface RawExchange {
  socket: Socket;
  /** Writes bytes as they are: no framing, no fixing up. */
  send(bytes: string | Buffer): void;
  /** Resolves once the server closes the connection, or after `waitMs` (then the client closes it). */
  answer(waitMs?: number): Promise<RawAnswer>;
}

function parseAnswer(raw: string): Pick<RawAnswer, 'status' | 'headers' | 'rest'> {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = Number(statusLine.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, rest: end === -1 ? '' : raw.slice(end + 4) };
}

/**
 * Opens a plain TCP connection to `url`'s host and port, for requests no HTTP client would send:
 * broken request lines, lying lengths, bodies that trickle or stop halfway.
 */
export async function openRaw(url: string): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = Date.now();
  let raw = '';
  socket.on('data', (chunk: Buffer) => {
    raw += chunk.toString('latin1');
  });
  // A reset after the answer is part of what is being observed, not a failure of the test's client.
  socket.on('error', () => {});
  const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));

  return {
    socket,
    send: (bytes) => {
      if (!socket.destroyed) socket.write(bytes);
    },
    answer: async (waitMs = 5_000) => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'waited'>((resolve) => {
        timer = setTimeout(() => resolve('waited'), waitMs);
      });
      const outcome = await Promise.race([closed, waited]);
      clearTimeout(timer);
      if (outcome === 'waited') socket.destroy();
      return { ...parseAnswer(raw), closedByServer: outcome === 'closed', elapsedMs: Date.now() - started };
    },
  };
}

/** Sends `bytes` on a fresh connection and waits for the server to answer and close (or `waitMs`). */
export async function rawRequest(url: string, bytes: string | Buffer, waitMs?: number): Promise<RawAnswer> {
  const exchange = await openRaw(url);
  exchange.send(bytes);
  return exchange.answer(waitMs);
}

/** Resolves with the first response's status as soon as its header block has arrived. */
export function firstStatus(exchange: RawExchange, waitMs = 5_000): Promise<number> {
  return new Promise((resolve) => {
    let raw = '';
    const timer = setTimeout(() => resolve(0), waitMs);
    exchange.socket.on('data', (chunk: Buffer) => {
      raw += chunk.toString('latin1');
      if (raw.includes('\r\n\r\n')) {
        clearTimeout(timer);
        resolve(parseAnswer(raw).status);
      }
    });
  });
}

/** A request as a browser would frame it, with Content-Length right. */
export function httpRequest(
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {},
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: localhost', 'connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}
