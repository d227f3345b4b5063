import { describe, expect, it } from 'vitest';
import {
  BAR_WIDTH,
  type SignupFacts,
  signupBar,
  waitlistStats,
  waitlistStatsReport,
} from '../../../local/waitlist-stats';

const NOW = new Date('2026-12-10T15:30:00.000Z');

const signup = (createdAt: string, language = 'nl', status = 'pending'): SignupFacts => ({
  createdAt,
  language,
  status,
});

const signupsOn = (stats: ReturnType<typeof waitlistStats>) =>
  Object.fromEntries(
    stats.perDay.filter(({ signups }) => signups > 0).map(({ day, signups }) => [day, signups]),
  );

describe('waitlistStats', () => {
  it('has one entry per day, oldest first and ending today, days without signups included', () => {
    const stats = waitlistStats([], { now: NOW, days: 30 });

    expect(stats.perDay).toHaveLength(30);
    expect(stats.perDay[0]).toEqual({ day: '2026-11-11', signups: 0 });
    expect(stats.perDay.at(-1)).toEqual({ day: '2026-12-10', signups: 0 });
    expect(new Set(stats.perDay.map(({ day }) => day)).size).toBe(30);
  });

  it('counts a record from the 30th day counting today (29 days back), and none from the 31st (30 days back)', () => {
    const stats = waitlistStats(
      [
        signup('2026-11-11T00:00:00.000Z'),
        signup('2026-11-10T23:59:59.999Z'),
        signup('2026-11-10T15:30:00.000Z'),
      ],
      { now: NOW, days: 30 },
    );

    expect(signupsOn(stats)).toEqual({ '2026-11-11': 1 });
    expect(stats.total).toBe(3);
  });

  it('counts by the UTC day, whatever offset the time was written with', () => {
    const stats = waitlistStats(
      [
        signup('2026-12-09T23:59:59.999Z'),
        signup('2026-12-10T00:00:00.000Z'),
        // 23:30 in Amsterdam on the 9th is 22:30 UTC; 00:30 in Amsterdam on the 10th is still the 9th in UTC.
        signup('2026-12-09T23:30:00+01:00'),
        signup('2026-12-10T00:30:00+01:00'),
        signup('2026-12-10T23:59:59.999Z'),
      ],
      { now: NOW, days: 30 },
    );

    expect(signupsOn(stats)).toEqual({ '2026-12-09': 3, '2026-12-10': 2 });
  });

  it("ends the window at now's UTC day, also just before and after midnight", () => {
    const records = [signup('2026-12-09T12:00:00.000Z'), signup('2026-12-10T12:00:00.000Z')];

    const beforeMidnight = waitlistStats(records, { now: new Date('2026-12-09T23:59:59.999Z'), days: 1 });
    const afterMidnight = waitlistStats(records, { now: new Date('2026-12-10T00:00:00.000Z'), days: 1 });

    expect(beforeMidnight.perDay).toEqual([{ day: '2026-12-09', signups: 1 }]);
    expect(afterMidnight.perDay).toEqual([{ day: '2026-12-10', signups: 1 }]);
  });

  it('leaves records made later than today, or with no readable time, out of the chart but in the totals', () => {
    const stats = waitlistStats(
      [signup('2026-12-11T00:00:00.000Z'), signup('yesterday'), { language: 'en', status: 'confirmed' }],
      { now: NOW, days: 30 },
    );

    expect(signupsOn(stats)).toEqual({});
    expect(stats.total).toBe(3);
  });

  it('totals the whole list by language and by status: no status is unconfirmed, a bounce or complaint its own', () => {
    const stats = waitlistStats(
      [
        signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'),
        signup('2026-12-10T09:00:00.000Z', 'nl', 'pending'),
        signup('2026-12-01T09:00:00.000Z', 'en', 'confirmed'),
        // From before confirmation by mail: no status at all.
        { createdAt: '2025-12-01T09:00:00.000Z', language: 'en' },
        signup('2026-12-02T09:00:00.000Z', 'de', 'pending'),
        { ...signup('2026-12-03T09:00:00.000Z', 'nl', 'confirmed'), mailSuppressed: 'complaint' },
        { ...signup('2026-12-04T09:00:00.000Z', 'nl', 'pending'), mailSuppressed: 'bounce' },
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.byLanguage).toEqual({ nl: 4, en: 2, other: 1 });
    expect(stats.byStatus).toEqual({ confirmed: 2, pending: 2, unconfirmed: 1, bounced: 1, complained: 1 });
    expect(stats.total).toBe(7);
  });
});

describe('signupBar', () => {
  it.each([
    [10, 10, 50, '█'.repeat(50)],
    [5, 10, 50, '█'.repeat(25)],
    [1, 3, 10, '███▍'],
    [1, 1000, 50, '▏'],
    [0, 10, 50, ''],
    [0, 0, 50, ''],
  ])('draws %i of a busiest %i in %i characters as %j', (count, busiest, width, bar) => {
    expect(signupBar(count, busiest, width)).toBe(bar);
  });
});

describe('waitlistStatsReport', () => {
  const report = waitlistStatsReport(
    waitlistStats(
      [
        ...Array.from({ length: 4 }, () => signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed')),
        signup('2026-12-08T08:00:00.000Z', 'en', 'pending'),
        signup('2026-12-08T09:00:00.000Z', 'en', 'pending'),
        signup('2026-10-01T09:00:00.000Z', 'nl', 'pending'),
      ],
      { now: NOW, days: 5 },
    ),
  );
  const lines = report.split('\n');

  it("charts each day with its date, a bar scaled to the busiest day and the count, in the window's order", () => {
    expect(lines.slice(0, 6)).toEqual([
      'Signups per day (UTC), the last 5 days: 6',
      `2026-12-06  ${' '.repeat(BAR_WIDTH)}  0`,
      `2026-12-07  ${' '.repeat(BAR_WIDTH)}  0`,
      `2026-12-08  ${'█'.repeat(BAR_WIDTH / 2).padEnd(BAR_WIDTH)}  2`,
      `2026-12-09  ${' '.repeat(BAR_WIDTH)}  0`,
      `2026-12-10  ${'█'.repeat(BAR_WIDTH)}  4`,
    ]);
  });

  it('then prints the whole list by language and status and its total, leaving out rows with none', () => {
    expect(lines.slice(6)).toEqual([
      '',
      'By language',
      'nl          5',
      'en          2',
      '',
      'By status',
      'confirmed   4',
      'pending     3',
      '',
      'total       7',
      '',
    ]);
  });

  it('fits every line in 80 columns, also for a year of days and six-digit counts', () => {
    const busy = waitlistStatsReport({
      perDay: Array.from({ length: 366 }, (_, index) => ({ day: '2026-01-01', signups: index * 1000 })),
      byLanguage: { nl: 1, en: 1, other: 0 },
      byStatus: { confirmed: 1, pending: 1, unconfirmed: 0, bounced: 0, complained: 0 },
      total: 2,
    });

    expect(Math.max(...busy.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('draws no bars when the window has no signups', () => {
    const empty = waitlistStatsReport(waitlistStats([], { now: NOW, days: 3 })).split('\n');

    expect(empty.slice(0, 4)).toEqual([
      'Signups per day (UTC), the last 3 days: 0',
      `2026-12-08  ${' '.repeat(BAR_WIDTH)}  0`,
      `2026-12-09  ${' '.repeat(BAR_WIDTH)}  0`,
      `2026-12-10  ${' '.repeat(BAR_WIDTH)}  0`,
    ]);
  });
});
