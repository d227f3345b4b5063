/** The runner's per-client limit: what it counts, per address and per minute, and its setting. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE } from '#contract/abuse-limits';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { clientPostsPerMinuteFrom, limitClientPosts } from '../../../local/client-rate-limit';

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(process.stdout, 'write').mockReturnValue(true);
});
afterEach(() => vi.useRealTimers());

/** The API behind the limit: each call posts `times` times and answers how many reached the API. */
function limited(limit: number) {
  let reached = 0;
  const serve = limitClientPosts(limit, async () => void reached++);
  const response = { writeHead: () => response, end() {} } as unknown as ServerResponse;
  return async (times = 1, client = '203.0.113.7') => {
    const before = reached;
    for (let post = 0; post < times; post++) {
      const request = { method: 'POST', url: WAITLIST_PATH, socket: { remoteAddress: client }, resume() {} };
      await serve(request as unknown as IncomingMessage, response);
    }
    return reached - before;
  };
}

describe('the per-client limit', () => {
  it('lets each address send its limit in a minute, and again in the next', async () => {
    const post = limited(3);

    expect(await post(5)).toBe(3);
    expect(await post(5, '2001:db8::1')).toBe(3);
    vi.advanceTimersByTime(59_000);
    expect(await post()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(await post(5)).toBe(3);
  });

  it('lets everything through at 0', async () => {
    expect(await limited(0)(1_000)).toBe(1_000);
  });
  // What counts (leave and visit posts do not): test/infra/edge-rate-limit, for the runner and WAF alike.
});

describe('SIGNUP_RATE_LIMIT', () => {
  it.each([
    [undefined, CLIENT_POSTS_PER_MINUTE],
    ['', CLIENT_POSTS_PER_MINUTE],
    ['5', 5],
    ['0', 0],
  ])('%j sets %i posts per client per minute', (setting, limit) => {
    expect(clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: setting })).toBe(limit);
  });

  it.each(['-1', '2.5', 'ten', '1e400'])('refuses to start with %s', (setting) => {
    expect(() => clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: setting })).toThrow(/SIGNUP_RATE_LIMIT/);
  });
});
