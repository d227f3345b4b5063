import { setTimeout as delay } from 'node:timers/promises';
import { faultClassOf, setupFaultOf } from '../telemetry/fault-class';

const wallClock = {
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal): Promise<void> => delay(ms, undefined, signal && { signal }),
};
export type PaceClock = typeof wallClock;

// Each instance keeps its share of SES's rate in its own memory; SES's "slow down" is the backstop.
export class Pace {
  private nextAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** A new rate leaves the turns already given as they are. */
    public perSecond: number,
    private readonly clock: PaceClock = wallClock,
  ) {}

  holdFor(ms: number): void {
    this.nextAt = Math.max(this.nextAt, this.clock.now() + ms);
  }

  /** `signal` ends the wait, and gives the turn back unless a later one was given meanwhile. */
  async turn(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const at = Math.max(now, this.nextAt);
    const next = at + 1_000 / this.perSecond;
    this.nextAt = next;
    if (at <= now) return;
    try {
      await this.clock.sleep(at - now, signal);
    } catch (error) {
      if (this.nextAt === next) this.nextAt = at;
      throw error;
    }
  }
}

export const THROTTLE_WAIT_MS = { first: 250, max: 4_000 };

// Waits out SES's "slow down" (doubling), a new turn each time, unless `giveUp()`. `turnTaken`: the caller
// took the first turn. The day's quota spent is thrown at once.
export async function sendUntilNotThrottled<T>(
  send: () => Promise<T>,
  turn: () => Promise<void>,
  {
    giveUp = () => false,
    clock = wallClock,
    turnTaken = false,
  }: { giveUp?: () => boolean; clock?: PaceClock; turnTaken?: boolean } = {},
): Promise<{ result: T; throttled: number }> {
  let wait = THROTTLE_WAIT_MS.first;
  let throttled = 0;
  if (!turnTaken) await turn();
  for (;;) {
    try {
      return { result: await send(), throttled };
    } catch (error) {
      if (faultClassOf(error) !== 'throttled' || setupFaultOf(error) || giveUp()) throw error;
      throttled++;
      await clock.sleep(wait);
      wait = Math.min(wait * 2, THROTTLE_WAIT_MS.max);
      await turn();
    }
  }
}
