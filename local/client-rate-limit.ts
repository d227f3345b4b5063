import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_POSTS_PER_MINUTE, countsTowardClientLimit } from '#contract/abuse-limits';
import { isApiRoute } from '#contract/api-routes';
import { METRIC } from '#contract/metrics';
import * as tooMany from '#contract/too-many-requests';
import { writeMetricLine } from '../functions/telemetry/metrics';
import { splitTarget } from './lambda-http-adapter';

export function clientPostsPerMinuteFrom(environment: NodeJS.ProcessEnv): number {
  const setting = environment.SIGNUP_RATE_LIMIT?.trim() || String(CLIENT_POSTS_PER_MINUTE);
  const limit = Number(setting);
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new Error(
      `SIGNUP_RATE_LIMIT must be a whole number of requests per minute (0: no limit), not "${setting}"`,
    );
  return limit;
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

// WAF's per-client limit (#contract/abuse-limits), per socket address, counted in memory for this minute.
export function limitClientPosts(postsPerMinute: number, next: Route): Route {
  const counts = new Map<string, number>();
  setInterval(() => counts.clear(), 60_000).unref();
  return async (request, response) => {
    const [path] = splitTarget(request.url);
    const client = request.socket.remoteAddress ?? '';
    const counted =
      postsPerMinute > 0 && isApiRoute(path) && countsTowardClientLimit(request.method ?? '', path);
    if (counted) counts.set(client, (counts.get(client) ?? 0) + 1);
    if (!counted || (counts.get(client) ?? 0) <= postsPerMinute) return next(request, response);
    // The body is not wanted; Node discards the rest of it before the connection's next request.
    request.resume();
    response.writeHead(tooMany.TOO_MANY_REQUESTS_STATUS, {
      'content-type': tooMany.TOO_MANY_REQUESTS_CONTENT_TYPE,
      'retry-after': tooMany.TOO_MANY_REQUESTS_RETRY_AFTER,
      'content-length': Buffer.byteLength(tooMany.TOO_MANY_REQUESTS_HTML),
    });
    response.end(tooMany.TOO_MANY_REQUESTS_HTML);
    // Counted as the functions count their own answers (WAF counts its own on AWS).
    writeMetricLine({
      service: path.startsWith('/api/confirm') ? 'confirm' : 'waitlist',
      message: 'client rate limited',
      level: 'INFO',
      counts: { [METRIC.rateLimited]: 1 },
      fields: { status: tooMany.TOO_MANY_REQUESTS_STATUS },
    });
  };
}
