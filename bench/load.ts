/**
 * Load against a runner's waitlist API with autocannon, always bounded twice: by a request count and by
 * time, whichever comes first, so no run can go on for ever. Localhost only.
 */
import autocannon from 'autocannon';
import { WAITLIST_PATH } from '#contract/waitlist-api';

export interface LoadOptions {
  /** The runner's base URL; anything but localhost is refused. */
  url: string;
  connections: number;
  seconds: number;
  maxRequests: number;
  /**
   * Sets each request's headers and body. `context` belongs to the one connection that sends the request
   * and lives until its answer arrives (one request in flight per connection, no pipelining).
   */
  setupRequest(request: autocannon.Request, context: Record<string, unknown>): autocannon.Request;
  onResponse?(status: number, context: Record<string, unknown>): void;
}

export function runLoad({
  url,
  connections,
  seconds,
  maxRequests,
  setupRequest,
  onResponse,
}: LoadOptions): Promise<autocannon.Result> {
  const { hostname } = new URL(url);
  if (hostname !== 'localhost' && hostname !== '127.0.0.1')
    throw new Error(`load only against localhost, not ${hostname}`);
  return new Promise((resolveRun, rejectRun) => {
    let stopTimer: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url: new URL(WAITLIST_PATH, url).href,
        connections,
        pipelining: 1,
        // `amount` ends the run by count; the timer below ends it by time.
        amount: Math.max(maxRequests, connections),
        timeout: 10,
        requests: [
          {
            method: 'POST',
            setupRequest: (request, context) => setupRequest(request, context as Record<string, unknown>),
            ...(onResponse
              ? {
                  onResponse: (status: number, _body: string, context: object) =>
                    onResponse(status, context as Record<string, unknown>),
                }
              : {}),
          },
        ],
      },
      (error, result) => {
        clearTimeout(stopTimer);
        if (error) rejectRun(error);
        else resolveRun(result);
      },
    );
    stopTimer = setTimeout(() => instance.stop(), seconds * 1000);
  });
}

/** The counts of each status code in a run, e.g. `{ 201: 900, 409: 100 }`. */
export function statusCounts(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0]),
  );
}

/** autocannon records latency in whole milliseconds: 0 means under one. */
export const wholeMs = (value: number) => (value === 0 ? '< 1 ms' : `${value} ms`);
