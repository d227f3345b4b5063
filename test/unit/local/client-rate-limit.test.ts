/** The runner's per-client limit: counts per address per minute, its setting, and what it lets through. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE } from '#contract/abuse-limits';
import { clientPostsPerMinuteFrom, createClientRateLimit } from '../../../local/client-rate-limit';

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
