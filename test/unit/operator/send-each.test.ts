import { describe, expect, it } from 'vitest';
import { sendEach } from '../../../operator/send-each';

describe('sending to each person', () => {
  it('stops at the first error: no new send starts, those in flight finish', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = await sendEach(
      [1, 2, 3, 4, 5, 6],
      async (item) => {
        started.push(item);
        await new Promise((resolve) => setImmediate(resolve));
        if (item === 2) throw new Error('disk full');
        finished.push(item);
      },
      { concurrency: 2 },
    );

    expect((outcome.error as Error).message).toBe('disk full');
    expect(started).toEqual([1, 2, 3]);
    expect(finished).toEqual([1, 3]);
  });

  it('stops starting when the signal aborts (Ctrl-C)', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await sendEach(
      [1, 2, 3, 4],
      async (item) => {
        started.push(item);
        if (item === 2) controller.abort();
      },
      { concurrency: 1, signal: controller.signal },
    );
    expect(started).toEqual([1, 2]);
  });

  it('keeps at most `concurrency` sends in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await sendEach(
      Array.from({ length: 20 }, (_, index) => index),
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
      },
      { concurrency: 4 },
    );
    expect(most).toBe(4);
  });
});
