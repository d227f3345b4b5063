import { describe, expect, it } from 'vitest';
import { type Clock, Pacer, sendPaced, untilNotThrottled } from '../../../functions/announce/pacer';

/** A clock that moves only when something sleeps on it: pacing is checked without waiting. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms) {
      sleeps.push(ms);
      now += ms;
    },
  };
}

const throttling = () =>
  Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'ThrottlingException' });

describe('the pacer', () => {
  it('starts at most `rate` a second, evenly spaced, over any stretch', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(50, clock);
    const starts: number[] = [];

    for (let index = 0; index < 500; index++) {
      await pacer.acquire();
      starts.push(clock.now());
    }

    expect(starts[0]).toBe(0);
    expect(starts.at(-1)).toBeCloseTo(499 * 20, 6);
    const gaps = starts.slice(1).map((start, index) => start - (starts[index] as number));
    expect(Math.min(...gaps)).toBeCloseTo(20, 6);
  });

  it('does not add up lateness: a start that came late does not push the next ones back', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(10, clock);
    await pacer.acquire();
    await clock.sleep(250);

    await pacer.acquire();

    expect(clock.now()).toBe(250);
  });

  it('never waits without a limit', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(Number.POSITIVE_INFINITY, clock);
    for (let index = 0; index < 100; index++) await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('lowers its rate when told the mail service is throttling', () => {
    const pacer = new Pacer(50);
    pacer.slowDown();
    expect(pacer.rate).toBeLessThan(50);
  });
});

describe('a throttled send', () => {
  it('is tried again after waits that double up to a few seconds, never dropped, and the rate goes down', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(50, clock);
    let attempts = 0;

    const result = await untilNotThrottled(
      async () => {
        attempts++;
        if (attempts <= 6) throw throttling();
        return 'sent';
      },
      { pacer, clock },
    );

    expect(result).toBe('sent');
    expect(attempts).toBe(7);
    expect(clock.sleeps.filter((ms) => ms >= 250)).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000]);
    expect(pacer.rate).toBeLessThan(50);
  });

  it('gives up when asked to, with the throttling error', async () => {
    const pacer = new Pacer(50, fakeClock());
    await expect(
      untilNotThrottled(() => Promise.reject(throttling()), {
        pacer,
        clock: fakeClock(),
        giveUp: () => true,
      }),
    ).rejects.toThrow('Maximum sending rate exceeded.');
  });

  it('is not retried for any other error', async () => {
    let attempts = 0;
    await expect(
      untilNotThrottled(
        async () => {
          attempts++;
          throw Object.assign(new Error('no'), { name: 'AccessDeniedException' });
        },
        { pacer: new Pacer(50, fakeClock()), clock: fakeClock() },
      ),
    ).rejects.toThrow('no');
    expect(attempts).toBe(1);
  });

  it('is not waited out when SES’s quota for the day is spent: no wait of seconds ends it', async () => {
    const clock = fakeClock();
    let attempts = 0;
    await expect(
      untilNotThrottled(
        async () => {
          // Were it waited out, the third try would go.
          if (++attempts > 2) return 'sent';
          throw Object.assign(new Error('Daily message quota exceeded.'), { name: 'ThrottlingException' });
        },
        { pacer: new Pacer(50, fakeClock()), clock },
      ),
    ).rejects.toThrow('Daily message quota exceeded.');
    expect(attempts).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('sending paced', () => {
  it('stops at the first error: no new send starts, those in flight finish', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = await sendPaced(
      [1, 2, 3, 4, 5, 6],
      async (item) => {
        started.push(item);
        await new Promise((resolve) => setImmediate(resolve));
        if (item === 2) throw new Error('disk full');
        finished.push(item);
      },
      { pacer: new Pacer(Number.POSITIVE_INFINITY), concurrency: 2 },
    );

    expect((outcome.error as Error).message).toBe('disk full');
    expect(started).toEqual([1, 2, 3]);
    expect(finished).toEqual([1, 3]);
  });

  it('stops starting when the signal aborts (Ctrl-C)', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await sendPaced(
      [1, 2, 3, 4],
      async (item) => {
        started.push(item);
        if (item === 2) controller.abort();
      },
      { pacer: new Pacer(Number.POSITIVE_INFINITY), concurrency: 1, signal: controller.signal },
    );
    expect(started).toEqual([1, 2]);
  });

  it('keeps at most `concurrency` sends in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await sendPaced(
      Array.from({ length: 20 }, (_, index) => index),
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
      },
      { pacer: new Pacer(Number.POSITIVE_INFINITY), concurrency: 4 },
    );
    expect(most).toBe(4);
  });
});
