import { setTimeout as delay } from 'node:timers/promises';
import { faultClassOf, setupFaultOf } from '../telemetry/fault-class';

/** Time as the pacer sees it: injected in tests, so pacing is checked without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined),
};

/** After throttling, the rate is cut by this much, down to at most this slow. */
const SLOWDOWN = 0.8;
const MIN_RATE = 1;
/** Throttling is waited out from this long, doubling up to a few seconds. */
export const THROTTLE_DELAY_MS = { first: 250, max: 4_000 };

/**
 * At most `rate` starts per second (Infinity: no limit): each start is given the next free moment, one
 * interval after the last, so the rate holds over any stretch and timers' lateness does not add up.
 * In-flight work may overlap: only the starts are spaced.
 */
export class Pacer {
  #rate: number;
  #next = Number.NEGATIVE_INFINITY;
  readonly #clock: Clock;

  constructor(rate: number, clock: Clock = systemClock) {
    if (!(rate > 0)) throw new Error('the rate must be above 0 mails per second');
    this.#rate = rate;
    this.#clock = clock;
  }

  get rate(): number {
    return this.#rate;
  }

  /** Resolves at the next moment a start is allowed. */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.#rate === Number.POSITIVE_INFINITY) return;
    const now = this.#clock.now();
    const start = Math.max(now, this.#next);
    this.#next = start + 1_000 / this.#rate;
    if (start > now) await this.#clock.sleep(start - now, signal);
  }

  /** The mail service said "slow down": every later start comes less often. */
  slowDown(): void {
    this.#rate = this.#rate === Number.POSITIVE_INFINITY ? 100 : Math.max(MIN_RATE, this.#rate * SLOWDOWN);
  }
}

/**
 * Runs `work` until it does not throw throttling: on throttling it slows the pacer, waits (doubling, up
 * to a few seconds) and tries the same work again; it never gives up on it unless `giveUp()` says so (the
 * run is stopping, or a Lambda's time is running out), and then throws the throttling error. The day's
 * quota spent (fault-class.ts setupFaultOf) is thrown at once: no wait of seconds ends it.
 */
export async function untilNotThrottled<T>(
  work: () => Promise<T>,
  {
    pacer,
    clock = systemClock,
    giveUp = () => false,
  }: { pacer: Pacer; clock?: Clock; giveUp?: () => boolean },
): Promise<T> {
  let wait = THROTTLE_DELAY_MS.first;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (faultClassOf(error) !== 'throttled' || setupFaultOf(error) || giveUp()) throw error;
      pacer.slowDown();
      await clock.sleep(wait);
      wait = Math.min(wait * 2, THROTTLE_DELAY_MS.max);
      await pacer.acquire();
    }
  }
}

/**
 * Sends to each recipient in turn, paced, with up to `concurrency` sends in flight. The first error stops
 * the run: no new send starts, those in flight finish, and the error is returned. So does `signal` (Ctrl-C).
 */
export async function sendPaced<T>(
  recipients: AsyncIterable<T> | Iterable<T>,
  send: (recipient: T) => Promise<void>,
  { pacer, concurrency, signal }: { pacer: Pacer; concurrency: number; signal?: AbortSignal },
): Promise<{ error?: unknown }> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const stopped = () => failure !== undefined || signal?.aborted === true;
  for await (const recipient of recipients) {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (stopped()) break;
    try {
      await pacer.acquire(signal);
    } catch {
      break;
    }
    if (stopped()) break;
    const sending = send(recipient).then(
      () => {},
      (error: unknown) => {
        failure ??= { error };
      },
    );
    const tracked = sending.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  await Promise.all(inFlight);
  return failure ?? {};
}
