import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_POSTS_PER_MINUTE, countsTowardClientLimit } from '#contract/abuse-limits';
import { isApiRoute } from '#contract/api-routes';
import { METRIC } from '#contract/metrics';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { writeMetricLine } from '../functions/telemetry/metrics';
import { splitTarget } from './lambda-http-adapter';

// The per-client limit AWS WAF applies at the edge in production (#contract/abuse-limits), in fixed windows
// of a minute. Only the current window's counts are kept, in memory, keyed by IP address.
const WINDOW_MS = 60_000;

/** 0 lets everything through. `now` is for tests. */
export function createClientRateLimit(postsPerMinute: number, now = Date.now) {
  let window = -1;
  const counts = new Map<string, number>();
  let windowEnd: NodeJS.Timeout | undefined;
  return {
    admit(client: string): boolean {
      if (postsPerMinute === 0) return true;
      const current = Math.floor(now() / WINDOW_MS);
      if (current !== window) {
        window = current;
        counts.clear();
        // The addresses go when their window ends, even if no request starts the next.
        clearTimeout(windowEnd);
        windowEnd = setTimeout(() => counts.clear(), (current + 1) * WINDOW_MS - now()).unref();
      }
      const count = (counts.get(client) ?? 0) + 1;
      counts.set(client, count);
      return count <= postsPerMinute;
    },
    heldAddresses: () => counts.size,
  };
}

export function clientPostsPerMinuteFrom(environment: NodeJS.ProcessEnv): number {
  const setting = environment.SIGNUP_RATE_LIMIT;
  if (setting === undefined || setting.trim() === '') return CLIENT_POSTS_PER_MINUTE;
  const limit = Number(setting);
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new Error(
      `SIGNUP_RATE_LIMIT must be a whole number of requests per minute (0: no limit), not "${setting}"`,
    );
  return limit;
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** `next`, with the posts past `limit` answered as WAF answers them: its status, page and Retry-After. */
export function limitClientPosts(limit: ReturnType<typeof createClientRateLimit>, next: Route): Route {
  return async (request, response) => {
    // Only a route spelled exactly counts: the runner answers any other /api path 404 before the limit.
    const [path] = splitTarget(request.url);
    // The socket's address: the runner is behind no proxy whose headers could be trusted.
    const counted = isApiRoute(path) && countsTowardClientLimit(request.method ?? '', path);
    if (!counted || limit.admit(request.socket.remoteAddress ?? '')) return next(request, response);
    // The body is not wanted; Node discards the rest of it before the connection's next request.
    request.resume();
    response.writeHead(TOO_MANY_REQUESTS_STATUS, {
      'content-type': TOO_MANY_REQUESTS_CONTENT_TYPE,
      'retry-after': TOO_MANY_REQUESTS_RETRY_AFTER,
      'content-length': Buffer.byteLength(TOO_MANY_REQUESTS_HTML),
    });
    response.end(TOO_MANY_REQUESTS_HTML);
    // Counted as the functions count their own answers (WAF counts its own on AWS).
    writeMetricLine({
      service: path.startsWith('/api/confirm') ? 'confirm' : 'waitlist',
      message: 'client rate limited',
      level: 'INFO',
      counts: { [METRIC.rateLimited]: 1 },
      fields: { status: TOO_MANY_REQUESTS_STATUS },
    });
  };
}
