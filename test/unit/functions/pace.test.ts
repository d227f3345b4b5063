/**
 * The pace one mailer instance keeps (functions/mailer/mail-sender.ts), on a clock that moves only when told to:
 * mails start 1/rate of a second apart, at once after a quiet spell, and throttling is waited out, turn
 * by turn.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  Pace,
  type PaceClock,
  sendUntilNotThrottled,
  THROTTLE_WAIT_MS,
} from '../../../functions/mailer/mail-sender';

/** A moment in 2027, in milliseconds since the epoch. */
const T0 = 1_800_000_000_000;

/** A clock whose sleeps pass at once, and are kept. */
function waitsKept(): PaceClock & { sleeps: number[]; pass(ms: number): void } {
  let now = T0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    pass(ms) {
      now += ms;
    },
    async sleep(ms) {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('the pace of one sender', () => {
  it('starts mails 1/rate of a second apart, the first at once', async () => {
    const clock = waitsKept();
    const pace = new Pace(4, clock);
    const starts: number[] = [];
    for (let mail = 0; mail < 5; mail++) {
      await pace.turn();
      starts.push(clock.now() - T0);
    }
    expect(starts).toEqual([0, 250, 500, 750, 1_000]);
  });

  it('gives each of several mails waiting at once a turn of its own', async () => {
    const clock: PaceClock & { sleeps: number[] } = {
      sleeps: [],
      now: () => T0,
      sleep: async (ms) => void clock.sleeps.push(ms),
    };
    const pace = new Pace(10, clock);
    await Promise.all([pace.turn(), pace.turn(), pace.turn()]);
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('after a quiet spell starts the next mail at once, saving no turns for a burst', async () => {
    const clock = waitsKept();
    const pace = new Pace(2, clock);
    await pace.turn();
    clock.pass(10_000);
    await pace.turn();
    await pace.turn();
    expect(clock.sleeps).toEqual([500]);
  });

  it('keeps the turns it gave when its rate changes, and spaces the next ones at the new rate', async () => {
    const clock = waitsKept();
    const pace = new Pace(1, clock);
    await pace.turn();
    pace.perSecond = 10;
    await pace.turn();
    await pace.turn();
    expect(clock.sleeps).toEqual([1_000, 100]);
  });

  it('holds every turn back for a while when told to give way, with or without a rate', async () => {
    for (const rate of [4, Number.POSITIVE_INFINITY]) {
      const clock = waitsKept();
      const pace = new Pace(rate, clock);
      pace.holdFor(1_000);
      await pace.turn();
      expect(clock.sleeps).toEqual([1_000]);
    }
  });

  it('never waits without a rate', async () => {
    const clock = waitsKept();
    const pace = new Pace(Number.POSITIVE_INFINITY, clock);
    for (let mail = 0; mail < 100; mail++) await pace.turn();
    expect(clock.sleeps).toEqual([]);
  });

  it('ends a wait when its signal is aborted, and gives its turn back', async () => {
    const pace = new Pace(0.001);
    await pace.turn();
    const stop = new AbortController();
    const waiting = pace.turn(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });

    // On a clock whose sleeps are kept: after three aborted waits the next is one gap (1,000 s), not four.
    const clock = waitsKept();
    const kept = new Pace(0.001, {
      now: clock.now,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        await clock.sleep(ms);
      },
    });
    await kept.turn();
    for (let stopped = 0; stopped < 3; stopped++)
      await expect(kept.turn(AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    await kept.turn();
    expect(clock.sleeps).toEqual([1_000_000]);
  });
});

describe('sending until not throttled', () => {
  const throttling = () =>
    Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'TooManyRequestsException' });

  it('waits, doubling up to a few seconds, and takes a new turn before each new try', async () => {
    const clock = waitsKept();
    const send = vi.fn(async () => 'sent');
    for (let time = 0; time < 7; time++) send.mockRejectedValueOnce(throttling());
    const acquire = vi.fn(async () => {});

    const { result, throttled } = await sendUntilNotThrottled(send, acquire, { clock });

    expect(result).toBe('sent');
    expect(throttled).toBe(7);
    expect(clock.sleeps).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(THROTTLE_WAIT_MS).toEqual({ first: 250, max: 4_000 });
    expect(send).toHaveBeenCalledTimes(8);
    expect(acquire).toHaveBeenCalledTimes(8);
    // Each try went only after a turn was taken for it.
    for (let attempt = 0; attempt < 8; attempt++)
      expect(acquire.mock.invocationCallOrder[attempt]).toBeLessThan(
        send.mock.invocationCallOrder[attempt] as number,
      );
  });

  it('gives up with the throttling error when told to, leaving the mail to its queue', async () => {
    const clock = waitsKept();
    const send = vi.fn(async () => {
      throw throttling();
    });
    const acquire = vi.fn(async () => {});
    let tries = 0;

    await expect(
      sendUntilNotThrottled(send, acquire, { clock, giveUp: () => ++tries > 2 }),
    ).rejects.toMatchObject({ name: 'TooManyRequestsException' });

    expect(send).toHaveBeenCalledTimes(3);
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it('throws any other error at once, without waiting or sending again', async () => {
    const clock = waitsKept();
    const refused = Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
    const send = vi.fn(async () => {
      throw refused;
    });
    const acquire = vi.fn(async () => {});

    await expect(sendUntilNotThrottled(send, acquire, { clock })).rejects.toBe(refused);

    expect(send).toHaveBeenCalledTimes(1);
    expect(acquire).toHaveBeenCalledTimes(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('throws SES’s “quota for the day spent” at once, though SES names it as it names “slow down”', async () => {
    const clock = waitsKept();
    const spent = Object.assign(new Error('Daily message quota exceeded.'), {
      name: 'TooManyRequestsException',
    });
    // Were it waited out, the third try would go.
    const send = vi
      .fn(async () => 'sent')
      .mockRejectedValueOnce(spent)
      .mockRejectedValueOnce(spent);

    await expect(sendUntilNotThrottled(send, async () => {}, { clock })).rejects.toBe(spent);

    expect(send).toHaveBeenCalledTimes(1);
    expect(clock.sleeps).toEqual([]);
  });
});
