/**
 * The one pace every mail keeps (functions/mailer/send-slots.ts), on a clock that moves only when
 * something waits on it, against a limit table kept in memory that honours `attribute_not_exists` as
 * DynamoDB does. Slots are spaced by the account's rate, one sender never takes another's, the priority
 * lane makes the bulk lane wait, and throttling is waited out, slot by slot.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { PACE_SHARE } from '#contract/mail-pace';
import {
  PRIORITY_HOLD_MS,
  type SlotClock,
  sendSlots,
  sendUntilNotThrottled,
  THROTTLE_WAIT_MS,
} from '../../../functions/mailer/send-slots';

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const dynamo = mockClient(documentClient);
const limits = { client: documentClient, tableName: 'limits' };
const KEY = MAIL_LIMIT_TABLE_KEY.name;
const HOLD_KEY = '#slot#priority-hold';
/** A moment in 2027, in milliseconds since the epoch: slots are cut from the wall clock. */
const T0 = 1_800_000_000_000;

/**
 * Time that moves only when every sender is waiting: then it jumps to the earliest wake-up, as if that
 * long had passed. `run` drives work to its end this way.
 */
function simulatedTime(start = T0) {
  let now = start;
  const timers: { at: number; wake: () => void }[] = [];
  const sleeps: number[] = [];
  const clock: SlotClock = {
    now: () => now,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleeps.push(ms);
        timers.push({ at: now + ms, wake });
      }),
  };
  async function run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const tracked = work.finally(() => {
      settled = true;
    });
    tracked.catch(() => {});
    for (;;) {
      // Everything that can happen without time passing happens first.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return tracked;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) throw new Error('the work waits for nothing, yet never ends');
      now = Math.max(now, next.at);
      next.wake();
    }
  }
  return {
    clock,
    sleeps,
    run,
    now: () => now,
    pass(ms: number) {
      now += ms;
    },
  };
}

/** The limit table, in memory: puts with a condition fail as DynamoDB's do when the key is there. */
function memoryTable() {
  const items = new Map<string, Record<string, unknown>>();
  const writes: string[] = [];
  dynamo.on(PutCommand).callsFake(async (input: PutCommand['input']) => {
    const key = String(input.Item?.[KEY]);
    if (input.ConditionExpression === 'attribute_not_exists(#key)' && items.has(key))
      throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    writes.push(key);
    items.set(key, { ...input.Item });
    return {};
  });
  dynamo.on(GetCommand).callsFake(async (input: GetCommand['input']) => {
    const item = items.get(String(input.Key?.[KEY]));
    return item ? { Item: { ...item } } : {};
  });
  return { items, writes };
}

const spacingAt = (rate: number) => 1_000 / (rate * PACE_SHARE);
/** The slots written, as [grid, index], in the order they were claimed. */
const slotsIn = (writes: string[], grid = 'all') =>
  writes.filter((key) => key.startsWith(`#slot#${grid}#`)).map((key) => Number(key.split('#').at(-1)));

beforeEach(() => {
  dynamo.reset();
});

describe('the send slots', () => {
  it('starts one mail per slot, 1000 / (rate × PACE_SHARE) ms apart, each at its slot’s moment', async () => {
    const time = simulatedTime();
    const { writes } = memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });
    const starts: number[] = [];

    await time.run(
      (async () => {
        for (let mail = 0; mail < 5; mail++) {
          await slots.acquire('priority');
          starts.push(time.now());
        }
      })(),
    );

    const spacing = spacingAt(10);
    const indexes = slotsIn(writes);
    expect(indexes).toHaveLength(5);
    expect(indexes[0]).toBe(Math.ceil(T0 / spacing));
    for (const [mail, index] of indexes.entries()) expect(starts[mail]).toBeCloseTo(index * spacing, 3);
    for (let mail = 1; mail < 5; mail++)
      expect((starts[mail] as number) - (starts[mail - 1] as number)).toBeCloseTo(spacing, 3);
  });

  it('moves to the next slot when another sender has taken this one', async () => {
    const time = simulatedTime();
    const { items, writes } = memoryTable();
    const spacing = spacingAt(10);
    const first = Math.ceil(T0 / spacing);
    items.set(`#slot#all#${first}`, {});
    items.set(`#slot#all#${first + 1}`, {});
    const slots = sendSlots(limits, 10, { clock: time.clock });

    await time.run(slots.acquire('priority'));

    expect(slotsIn(writes)).toEqual([first + 2]);
    expect(time.now()).toBeCloseTo((first + 2) * spacing, 3);
  });

  it('never gives two of its own mails one slot, nor spends a write on a slot it holds itself', async () => {
    const time = simulatedTime();
    const { writes } = memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });

    await time.run(Promise.all(Array.from({ length: 8 }, () => slots.acquire('priority'))));

    const indexes = slotsIn(writes);
    expect(new Set(indexes).size).toBe(8);
    // Eight mails, eight slot writes: none refused because this very process had the slot already.
    expect(
      dynamo.commandCalls(PutCommand).filter((call) => call.args[0].input.Item?.[KEY] !== HOLD_KEY),
    ).toHaveLength(8);
  });

  it('claims its slots with a condition, kept a minute past their moment, naming no address', async () => {
    const time = simulatedTime();
    memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });

    await time.run(slots.acquire('priority'));

    const slot = dynamo
      .commandCalls(PutCommand)
      .map((call) => call.args[0].input)
      .find((input) => String(input.Item?.[KEY]).startsWith('#slot#all#'));
    expect(slot).toMatchObject({
      TableName: 'limits',
      ConditionExpression: 'attribute_not_exists(#key)',
      ExpressionAttributeNames: { '#key': KEY },
    });
    expect(slot?.Item?.expiresAt).toBe(Math.ceil(time.now() / 1_000) + 60);
  });

  it('marks the priority lane busy until half a second after the slot it claimed, written when the mark moves on by a quarter second', async () => {
    const time = simulatedTime();
    const { items } = memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });
    const holdWrites = () =>
      dynamo.commandCalls(PutCommand).filter((call) => call.args[0].input.Item?.[KEY] === HOLD_KEY);

    await time.run(slots.acquire('priority'));
    const first = time.now();
    // The next slot, a tenth of a second on: the mark would move too little to be written again.
    await time.run(slots.acquire('priority'));
    expect(holdWrites()).toHaveLength(1);
    expect(items.get(HOLD_KEY)?.until).toBeCloseTo(first + PRIORITY_HOLD_MS, 0);

    time.pass(500);
    await time.run(slots.acquire('priority'));
    const third = time.now();

    expect(holdWrites()).toHaveLength(2);
    expect(items.get(HOLD_KEY)?.until).toBeCloseTo(third + PRIORITY_HOLD_MS, 0);
  });

  it('lets a trickle of priority mail hold the bulk lane back only briefly: an announcement keeps going between them', async () => {
    const time = simulatedTime();
    memoryTable();
    const confirmations = sendSlots(limits, 14, { clock: time.clock });
    const announcement = sendSlots(limits, 14, { clock: time.clock });

    // One confirmation every 2.5 s, and the announcement sending as fast as it may for 60 s.
    let bulkSent = 0;
    const end = time.now() + 60_000;
    const trickle = (async () => {
      while (time.now() < end) {
        await confirmations.acquire('priority');
        await time.clock.sleep(2_500);
      }
    })();
    const bulk = (async () => {
      while (time.now() < end) {
        await announcement.acquire('bulk');
        bulkSent++;
      }
    })();
    await time.run(Promise.all([trickle, bulk]));

    // 14 × 0.98 a second for 60 s is 823 slots; the confirmations' 24 and their half-second holds leave
    // the announcement most of them.
    expect(bulkSent).toBeGreaterThan(600);
  });

  it('holds a bulk mail back while the priority lane is busy, then lets it go at a free slot', async () => {
    const time = simulatedTime();
    memoryTable();
    const confirmations = sendSlots(limits, 10, { clock: time.clock });
    const announcement = sendSlots(limits, 10, { clock: time.clock });

    await time.run(confirmations.acquire('priority'));
    const busyUntil = time.now() + PRIORITY_HOLD_MS;
    expect(time.now()).toBeLessThan(busyUntil);
    await time.run(announcement.acquire('bulk'));

    expect(time.now()).toBeGreaterThanOrEqual(busyUntil);
    expect(time.now()).toBeLessThan(busyUntil + spacingAt(10) + 1);
  });

  it('lets a bulk mail go at once when no priority mail has marked the lane', async () => {
    const time = simulatedTime();
    memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });

    await time.run(slots.acquire('bulk'));

    expect(time.now()).toBeLessThan(T0 + spacingAt(10));
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({
      Key: { [KEY]: HOLD_KEY },
      ConsistentRead: true,
    });
  });

  it('reads the marker again after waiting, so a confirmation sent meanwhile by another process still goes first', async () => {
    const time = simulatedTime();
    const { items } = memoryTable();
    // An earlier confirmation marked the lane busy for one more second.
    items.set(HOLD_KEY, { [KEY]: HOLD_KEY, until: T0 + 1_000 });
    const announcement = sendSlots(limits, 10, { clock: time.clock });
    const confirmations = sendSlots(limits, 10, { clock: time.clock });
    let bulkStart = 0;

    await time.run(
      Promise.all([
        announcement.acquire('bulk').then(() => {
          bulkStart = time.now();
        }),
        time.clock.sleep(900).then(() => confirmations.acquire('priority')),
      ]),
    );

    expect(bulkStart).toBeGreaterThanOrEqual(T0 + 900 + PRIORITY_HOLD_MS);
    expect(bulkStart).toBeLessThan(T0 + 900 + PRIORITY_HOLD_MS + spacingAt(10) + 1);
  });

  it('keeps an announcement’s own lower rate in a grid of its own, and the account’s pace as well', async () => {
    const time = simulatedTime();
    const { writes } = memoryTable();
    const slots = sendSlots(limits, 100, { clock: time.clock });
    const starts: number[] = [];

    await time.run(
      (async () => {
        for (let mail = 0; mail < 4; mail++) {
          await slots.acquire('bulk', { bulkRate: 2 });
          starts.push(time.now());
        }
      })(),
    );

    expect(slotsIn(writes, 'bulk')).toHaveLength(4);
    expect(slotsIn(writes, 'all')).toHaveLength(4);
    for (let mail = 1; mail < 4; mail++)
      expect((starts[mail] as number) - (starts[mail - 1] as number)).toBeGreaterThanOrEqual(500 - 1e-6);
  });

  it('uses only the account’s grid when the announcement’s rate is not lower', async () => {
    const time = simulatedTime();
    const { writes } = memoryTable();
    const slots = sendSlots(limits, 10, { clock: time.clock });

    await time.run(slots.acquire('bulk', { bulkRate: 50 }));

    expect(slotsIn(writes, 'bulk')).toEqual([]);
    expect(slotsIn(writes, 'all')).toHaveLength(1);
  });

  it('asks nothing of the table without a pace, except for an announcement’s own rate', async () => {
    const time = simulatedTime();
    const { writes } = memoryTable();
    const slots = sendSlots(limits, Number.POSITIVE_INFINITY, { clock: time.clock });

    await time.run(slots.acquire('priority'));
    await time.run(slots.acquire('bulk'));
    expect(dynamo.calls()).toHaveLength(0);
    expect(time.sleeps).toEqual([]);

    await time.run(slots.acquire('bulk', { bulkRate: 5 }));
    expect(slotsIn(writes, 'bulk')).toHaveLength(1);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });

  it.each([0, -1, Number.NaN])('refuses a send rate of %s', (rate) => {
    expect(() => sendSlots(limits, rate)).toThrow(/above 0/);
  });
});

describe('no sliding second ever holds more than the rate', () => {
  it('for any senders sharing the table, lanes and pauses, counting each mail’s start', async () => {
    const step = fc.record({
      lane: fc.constantFrom('priority' as const, 'bulk' as const),
      pauseMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 })),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.array(step, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 10_000 }),
        async (rate, senders, offset) => {
          dynamo.reset();
          memoryTable();
          const time = simulatedTime(T0 + offset);
          const starts: number[] = [];
          await time.run(
            Promise.all(
              senders.map(async (steps) => {
                const slots = sendSlots(limits, rate, { clock: time.clock });
                for (const { lane, pauseMs } of steps) {
                  if (pauseMs > 0) await time.clock.sleep(pauseMs);
                  await slots.acquire(lane);
                  starts.push(time.now());
                }
              }),
            ),
          );
          starts.sort((a, b) => a - b);
          for (const [index, start] of starts.entries()) {
            const inWindow = starts.slice(index).filter((other) => other < start + 1_000).length;
            if (inWindow > Math.floor(rate))
              throw new Error(`${inWindow} mails in the second from ${start}, at ${rate}/s`);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('sending until not throttled', () => {
  const throttling = () =>
    Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'TooManyRequestsException' });

  /** A clock whose sleeps pass at once, and are kept. */
  function waitsKept(): SlotClock & { sleeps: number[] } {
    let now = T0;
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

  it('waits, doubling up to a few seconds, and takes a new slot before each new try', async () => {
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
    // Each try went only after a slot was taken for it.
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
