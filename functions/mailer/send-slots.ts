import { setTimeout as delay } from 'node:timers/promises';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { PACE_SHARE } from '#contract/mail-pace';
import type { WaitlistStore } from '../store/store-client';
import { faultClassOf, setupFaultOf } from '../telemetry/fault-class';

/**
 * The one pace every mail keeps, whoever sends it (the mailer's instances on AWS, the runner and the
 * operator's tool on one machine): SES's maximum send rate, shared through the limit table.
 *
 * Time is cut into slots, 1/rate of a second apart (a little wider: PACE_SHARE). Before a mail starts, its
 * sender claims the next free slot with a conditional put (one item per slot, gone a minute later), and
 * waits for the slot's moment. However many processes send, no two mails share a slot, so no second holds
 * more than the rate.
 *
 * Two lanes: `priority` (confirmation and leave-link mails, one person waiting for each) and `bulk` (the
 * announcement). A priority mail marks its lane busy until half a second after its slot; a bulk mail waits
 * while it is, so a backlog of confirmations goes ahead of an announcement being sent, and a trickle of
 * them costs the announcement little. A bulk mail also keeps the
 * announcement's own rate, when that is lower, in a grid of its own.
 */

export type Lane = 'priority' | 'bulk';

/** Time as the slots see it: the wall clock (shared between processes), injected in tests. */
export interface SlotClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const wallClock: SlotClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined),
};

/** How long after its slot's moment a priority mail keeps the bulk lane waiting. */
export const PRIORITY_HOLD_MS = 500;
/** How often a bulk sender reads whether the priority lane is busy. */
const HOLD_READ_INTERVAL_MS = 250;
/** How often one process writes that its priority lane is busy. */
const HOLD_WRITE_INTERVAL_MS = 250;
/** A slot's item is kept this long after its moment; the table's time to live then deletes it. */
const SLOT_KEPT_SECONDS = 60;
/** Throttling is waited out from this long, doubling up to a few seconds. */
export const THROTTLE_WAIT_MS = { first: 250, max: 4_000 };

const slotKey = (grid: string, index: number) => `#slot#${grid}#${index}`;
const HOLD_KEY = '#slot#priority-hold';

export interface SendSlots {
  /** Mails per second at most (Infinity: no pace, as on one machine without SES_MAX_SEND_RATE). */
  readonly rate: number;
  /**
   * Resolves at the moment a mail of `lane` may start. `bulkRate`: the announcement's own rate, when it
   * is lower than the account's.
   */
  acquire(lane: Lane, options?: { bulkRate?: number; signal?: AbortSignal }): Promise<void>;
}

export function sendSlots(
  limits: WaitlistStore,
  maxSendRate: number,
  { clock = wallClock, share = PACE_SHARE }: { clock?: SlotClock; share?: number } = {},
): SendSlots {
  if (!(maxSendRate > 0)) throw new Error('the send rate must be above 0 mails per second');
  const rate = maxSendRate * share;
  /** Per grid: the last slot this process claimed or is claiming; the next claim starts after it. */
  const lastClaimed = new Map<string, number>();
  let holdWrittenUntil = Number.NEGATIVE_INFINITY;
  let holdRead = { at: Number.NEGATIVE_INFINITY, until: 0 };

  /** Claims the first free slot from now in `grid`, and returns its moment (ms since the epoch). */
  async function claim(grid: string, gridRate: number): Promise<number> {
    const spacing = 1_000 / gridRate;
    let index = Math.max(Math.ceil(clock.now() / spacing), (lastClaimed.get(grid) ?? 0) + 1);
    for (;;) {
      // Taken for this process before the write: its concurrent sends go on to the next slots rather than
      // spend writes on this one.
      lastClaimed.set(grid, index);
      const at = index * spacing;
      try {
        await limits.client.send(
          new PutCommand({
            TableName: limits.tableName,
            Item: {
              [MAIL_LIMIT_TABLE_KEY.name]: slotKey(grid, index),
              [MAIL_LIMIT_EXPIRY_ATTRIBUTE]: Math.ceil(at / 1_000) + SLOT_KEPT_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(#key)',
            ExpressionAttributeNames: { '#key': MAIL_LIMIT_TABLE_KEY.name },
          }),
        );
        return at;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // Taken by another sender: the next one this process has not taken, but never one already past.
        index = Math.max((lastClaimed.get(grid) ?? index) + 1, Math.ceil(clock.now() / spacing));
      }
    }
  }

  /** Until when the priority lane is busy (ms since the epoch), read at most every quarter second. */
  async function holdUntil(): Promise<number> {
    const now = clock.now();
    if (now - holdRead.at < HOLD_READ_INTERVAL_MS) return holdRead.until;
    const { Item } = await limits.client.send(
      new GetCommand({
        TableName: limits.tableName,
        Key: { [MAIL_LIMIT_TABLE_KEY.name]: HOLD_KEY },
        ConsistentRead: true,
      }),
    );
    holdRead = { at: now, until: typeof Item?.until === 'number' ? Item.until : 0 };
    return holdRead.until;
  }

  /**
   * Marks the priority lane busy until a little after the slot it just claimed: a backlog of priority mail
   * keeps the bulk lane waiting, a single confirmation holds it back for half a second only. Written when
   * it moves the mark on by a quarter of a second or more.
   */
  async function hold(slotAt: number): Promise<void> {
    const until = slotAt + PRIORITY_HOLD_MS;
    if (until - holdWrittenUntil < HOLD_WRITE_INTERVAL_MS) return;
    holdWrittenUntil = until;
    await limits.client.send(
      new PutCommand({
        TableName: limits.tableName,
        Item: {
          [MAIL_LIMIT_TABLE_KEY.name]: HOLD_KEY,
          until,
          [MAIL_LIMIT_EXPIRY_ATTRIBUTE]: Math.ceil(until / 1_000) + SLOT_KEPT_SECONDS,
        },
      }),
    );
  }

  async function waitFor(at: number, signal?: AbortSignal): Promise<void> {
    const wait = at - clock.now();
    if (wait > 0) await clock.sleep(wait, signal);
  }

  return {
    rate: maxSendRate,
    async acquire(lane, { bulkRate, signal } = {}) {
      if (lane === 'priority') {
        // No pace, no queue to jump.
        if (rate === Number.POSITIVE_INFINITY) return;
        const at = await claim('all', rate);
        await hold(at);
        await waitFor(at, signal);
        return;
      }
      // An announcement slower than the account (the operator's --rate): its own grid first, at that rate.
      if (bulkRate !== undefined && bulkRate < rate) await waitFor(await claim('bulk', bulkRate), signal);
      if (rate === Number.POSITIVE_INFINITY) return;
      for (let until = await holdUntil(); until > clock.now(); until = await holdUntil())
        await clock.sleep(until - clock.now(), signal);
      await waitFor(await claim('all', rate), signal);
    },
  };
}

/**
 * Sends with `send` until the mail service stops saying "slow down": each time it does, the same mail
 * waits (doubling, up to a few seconds) and takes a new slot. Gives up, throwing the throttling error, only
 * when `giveUp()` says so (a Lambda's time running out, the runner stopping): the mail then stays queued.
 * `turnTaken`: the caller acquired the first slot itself (an announcement claims its person in between).
 * The day's quota spent is no "slow down" (fault-class.ts setupFaultOf): it is thrown at once.
 */
export async function sendUntilNotThrottled<T>(
  send: () => Promise<T>,
  acquire: () => Promise<void>,
  {
    giveUp = () => false,
    clock = wallClock,
    turnTaken = false,
  }: { giveUp?: () => boolean; clock?: SlotClock; turnTaken?: boolean } = {},
): Promise<{ result: T; throttled: number }> {
  let wait = THROTTLE_WAIT_MS.first;
  let throttled = 0;
  if (!turnTaken) await acquire();
  for (;;) {
    try {
      return { result: await send(), throttled };
    } catch (error) {
      if (faultClassOf(error) !== 'throttled' || setupFaultOf(error) || giveUp()) throw error;
      throttled++;
      await clock.sleep(wait);
      wait = Math.min(wait * 2, THROTTLE_WAIT_MS.max);
      await acquire();
    }
  }
}
