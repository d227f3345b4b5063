/** The runner's per-client limit: counts per address per minute, its setting, and what it lets through. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE } from '#contract/abuse-limits';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import {
  clientPostsPerMinuteFrom,
  createClientRateLimit,
  limitClientPosts,
} from '../../../local/client-rate-limit';

/** A clock a test moves by hand. */
function clock(start = Date.UTC(2026, 10, 24, 10, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const admitted = (limit: ReturnType<typeof createClientRateLimit>, client: string, times: number) =>
  Array.from({ length: times }, () => limit.admit(client)).filter(Boolean).length;

afterEach(() => {
  vi.useRealTimers();
});

describe('the per-client limit', () => {
  it('lets a client send its limit in a minute, and refuses the one after', () => {
    const time = clock();
    const limit = createClientRateLimit(3, time.now);

    expect([1, 2, 3, 4, 5].map(() => limit.admit('203.0.113.7'))).toEqual([true, true, true, false, false]);
  });

  it('counts each address on its own', () => {
    const limit = createClientRateLimit(2, clock().now);

    expect(admitted(limit, '203.0.113.7', 5)).toBe(2);
    expect(admitted(limit, '198.51.100.1', 5)).toBe(2);
    expect(admitted(limit, '2001:db8::1', 5)).toBe(2);
  });

  it('starts a client afresh in the next minute', () => {
    const time = clock();
    const limit = createClientRateLimit(2, time.now);
    admitted(limit, '203.0.113.7', 5);

    time.advance(60_000);

    expect(admitted(limit, '203.0.113.7', 5)).toBe(2);
  });

  it('keeps refusing within the same minute however long the client waits inside it', () => {
    const time = clock();
    const limit = createClientRateLimit(1, time.now);
    limit.admit('203.0.113.7');

    time.advance(59_999);

    expect(limit.admit('203.0.113.7')).toBe(false);
  });

  it('holds an address only until its window ends, even when no request follows', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 10, 0, 30) });
    const limit = createClientRateLimit(2);
    limit.admit('203.0.113.7');
    limit.admit('198.51.100.1');
    expect(limit.heldAddresses()).toBe(2);

    vi.advanceTimersByTime(30_000);

    expect(limit.heldAddresses()).toBe(0);
  });

  it('lets everything through at 0', () => {
    const limit = createClientRateLimit(0, clock().now);

    expect(admitted(limit, '203.0.113.7', 1_000)).toBe(1_000);
  });
});

describe('SIGNUP_RATE_LIMIT', () => {
  it('defaults to the contract’s CLIENT_POSTS_PER_MINUTE', () => {
    expect(clientPostsPerMinuteFrom({})).toBe(CLIENT_POSTS_PER_MINUTE);
    expect(clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: '' })).toBe(CLIENT_POSTS_PER_MINUTE);
  });

  it('sets the requests per client per minute, 0 for none', () => {
    expect(clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: '5' })).toBe(5);
    expect(clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: '0' })).toBe(0);
  });

  it.each(['-1', '2.5', 'ten', '1e400'])('refuses to start with %s', (setting) => {
    expect(() => clientPostsPerMinuteFrom({ SIGNUP_RATE_LIMIT: setting })).toThrow(/SIGNUP_RATE_LIMIT/);
  });
});

describe('the posts the runner’s limit counts', () => {
  const CLIENT = '203.0.113.7';

  /** The runner's API behind the limit, and the status each POST from CLIENT gets: 200 when it reached the API. */
  function limitedApi() {
    const serve = limitClientPosts(
      createClientRateLimit(CLIENT_POSTS_PER_MINUTE, clock().now),
      async (_request, response) => {
        response.writeHead(200);
        response.end();
      },
    );
    return async (url: string): Promise<number> => {
      const request = { method: 'POST', url, socket: { remoteAddress: CLIENT }, resume: () => {} };
      const response = {
        statusCode: 0,
        writeHead(status: number) {
          this.statusCode = status;
          return this;
        },
        end() {},
      };
      await serve(request as unknown as IncomingMessage, response as unknown as ServerResponse);
      return response.statusCode;
    };
  }

  it('lets a mail provider’s one-click posts to leave through from one address, however many, and refuses its 21st waitlist post in the minute', async () => {
    vi.spyOn(process.stdout, 'write').mockReturnValue(true);
    const post = limitedApi();

    const leaving: number[] = [];
    for (let person = 0; person < 5 * CLIENT_POSTS_PER_MINUTE; person++)
      leaving.push(await post(`${LEAVE_PATH}?lang=nl&t=token-${person}`));
    const joining: number[] = [];
    for (let signup = 0; signup <= CLIENT_POSTS_PER_MINUTE; signup++) joining.push(await post(WAITLIST_PATH));

    expect(leaving.every((status) => status === 200)).toBe(true);
    expect(joining.slice(0, CLIENT_POSTS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(joining[CLIENT_POSTS_PER_MINUTE]).toBe(429);
  });

  it('counts asking for a leave link by mail, which sends one', async () => {
    vi.spyOn(process.stdout, 'write').mockReturnValue(true);
    const post = limitedApi();

    const statuses: number[] = [];
    for (let request = 0; request <= CLIENT_POSTS_PER_MINUTE; request++)
      statuses.push(await post(LEAVE_REQUEST_PATH));

    expect(statuses.at(-1)).toBe(429);
  });
});
