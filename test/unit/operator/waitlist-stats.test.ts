import { describe, expect, it } from 'vitest';
import {
  BAR_WIDTH,
  rate,
  type SignupFacts,
  signupBar,
  type VisitsByDay,
  waitlistStats,
  waitlistStatsReport,
} from '../../../operator/waitlist-stats';

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
    expect(stats.perDay[0]).toEqual({ day: '2026-11-11', visits: 0, signups: 0, confirmed: 0 });
    expect(stats.perDay.at(-1)).toEqual({ day: '2026-12-10', visits: 0, signups: 0, confirmed: 0 });
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

    expect(beforeMidnight.perDay).toEqual([{ day: '2026-12-09', visits: 0, signups: 1, confirmed: 0 }]);
    expect(afterMidnight.perDay).toEqual([{ day: '2026-12-10', visits: 0, signups: 1, confirmed: 0 }]);
  });

  it('leaves records made later than today, or with no readable time, out of the chart but in the totals', () => {
    const stats = waitlistStats(
      [signup('2026-12-11T00:00:00.000Z'), signup('yesterday'), { language: 'en', status: 'confirmed' }],
      { now: NOW, days: 30 },
    );

    expect(signupsOn(stats)).toEqual({});
    expect(stats.total).toBe(3);
  });

  it('totals the whole list by language and by status, a bounce or complaint its own', () => {
    const stats = waitlistStats(
      [
        signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'),
        signup('2026-12-10T09:00:00.000Z', 'nl', 'pending'),
        signup('2026-12-01T09:00:00.000Z', 'en', 'confirmed'),
        signup('2025-12-01T09:00:00.000Z', 'en', 'pending'),
        signup('2026-12-02T09:00:00.000Z', 'de', 'pending'),
        { ...signup('2026-12-03T09:00:00.000Z', 'nl', 'confirmed'), mailSuppressed: 'complaint' },
        { ...signup('2026-12-04T09:00:00.000Z', 'nl', 'pending'), mailSuppressed: 'bounce' },
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.byLanguage).toEqual({ nl: 4, en: 2, other: 1 });
    expect(stats.byStatus).toEqual({ confirmed: 2, pending: 3, bounced: 1, complained: 1 });
    expect(stats.total).toBe(7);
  });
});

describe('waitlistStats, the funnel', () => {
  it('sums each day’s visits over the languages, and leaves out days outside the window', () => {
    const visits: VisitsByDay = {
      '2026-12-10': { nl: 12, en: 3 },
      '2026-12-09': { en: 4 },
      '2026-11-10': { nl: 1000 },
      '2026-12-11': { nl: 1000 },
    };

    const stats = waitlistStats([], { now: NOW, days: 30, visits });

    expect(stats.perDay.filter(({ visits: count }) => count > 0)).toEqual([
      { day: '2026-12-09', visits: 4, signups: 0, confirmed: 0 },
      { day: '2026-12-10', visits: 15, signups: 0, confirmed: 0 },
    ]);
  });

  it('counts a confirmation on the UTC day of its confirmedAt, which may be later than the signup', () => {
    const stats = waitlistStats(
      [
        { ...signup('2026-12-08T10:00:00.000Z', 'nl', 'confirmed'), confirmedAt: '2026-12-10T09:00:00.000Z' },
        { ...signup('2026-12-10T10:00:00.000Z', 'en', 'confirmed'), confirmedAt: '2026-12-10T10:05:00.000Z' },
        // Confirmed before the window: in the totals only.
        { ...signup('2026-10-01T10:00:00.000Z', 'nl', 'confirmed'), confirmedAt: '2026-10-01T11:00:00.000Z' },
        signup('2026-12-10T11:00:00.000Z', 'nl', 'pending'),
      ],
      { now: NOW, days: 5 },
    );

    expect(stats.perDay.map(({ day, signups, confirmed }) => [day, signups, confirmed])).toEqual([
      ['2026-12-06', 0, 0],
      ['2026-12-07', 0, 0],
      ['2026-12-08', 1, 0],
      ['2026-12-09', 0, 0],
      ['2026-12-10', 2, 2],
    ]);
  });

  it('labels each signup by its utm_source, else its referring host, else direct, the most first', () => {
    const stats = waitlistStats(
      [
        { ...signup('2026-12-10T08:00:00.000Z'), source: { utmSource: 'newsletter', utmMedium: 'email' } },
        { ...signup('2026-12-10T08:00:00.000Z'), source: { utmSource: 'newsletter' } },
        { ...signup('2026-12-09T08:00:00.000Z'), source: { utmSource: 'flyer', referrer: 'instagram.com' } },
        { ...signup('2026-12-09T08:00:00.000Z'), source: { referrer: 'instagram.com' } },
        { ...signup('2026-12-09T08:00:00.000Z'), source: { utmCampaign: 'launch' } },
        signup('2026-12-08T08:00:00.000Z'),
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.bySource).toEqual([
      ['direct', 2],
      ['newsletter', 2],
      ['flyer', 1],
      ['instagram.com', 1],
    ]);
  });

  it('never shows a stored value the API would not have kept: such a source counts as direct', () => {
    const stats = waitlistStats(
      [
        { ...signup('2026-12-10T08:00:00.000Z'), source: { utmSource: '<script>alert(1)</script>' } },
        { ...signup('2026-12-10T08:00:00.000Z'), source: { referrer: 'https://evil.example/path' } },
        { ...signup('2026-12-10T08:00:00.000Z'), source: { utmSource: 'x'.repeat(200) } },
        { ...signup('2026-12-10T08:00:00.000Z'), source: { utmSource: 'line\r\nbreak' } },
        { ...signup('2026-12-10T08:00:00.000Z'), source: 'newsletter' },
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.bySource).toEqual([['direct', 5]]);
  });
});

describe('rate', () => {
  it.each([
    [1, 20, '5.0%'],
    [2, 3, '66.7%'],
    [4, 4, '100.0%'],
    [0, 7, '0.0%'],
    [3, 0, '-'],
    [0, 0, '-'],
    [25, 2, '>999%'],
  ])('gives %i of %i as %j', (part, whole, text) => {
    expect(rate(part, whole)).toBe(text);
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
        ...Array.from({ length: 4 }, () => ({
          ...signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'),
          confirmedAt: '2026-12-10T08:10:00.000Z',
          source: { utmSource: 'newsletter' },
        })),
        { ...signup('2026-12-08T08:00:00.000Z', 'en', 'pending'), source: { referrer: 'instagram.com' } },
        signup('2026-12-08T09:00:00.000Z', 'en', 'pending'),
        signup('2026-10-01T09:00:00.000Z', 'nl', 'pending'),
      ],
      {
        now: NOW,
        days: 5,
        visits: { '2026-12-08': { nl: 30, en: 10 }, '2026-12-09': { en: 5 }, '2026-12-10': { nl: 80 } },
      },
    ),
  );
  const lines = report.split('\n');
  const blank = ' '.repeat(BAR_WIDTH);

  it('heads the funnel with its columns, right-aligned over the figures', () => {
    expect(lines.slice(0, 2)).toEqual([
      'Visits → signups → confirmed per day (UTC), the last 5 days',
      `${' '.repeat(12 + BAR_WIDTH)}  visits  signups  confirmed  sign-up  confirm`,
    ]);
  });

  it('charts each day with its date, a bar of its signups scaled to the busiest day, and its funnel', () => {
    expect(lines.slice(2, 7)).toEqual([
      `2026-12-06  ${blank}       0        0          0        -        -`,
      `2026-12-07  ${blank}       0        0          0        -        -`,
      `2026-12-08  ${'█'.repeat(BAR_WIDTH / 2).padEnd(BAR_WIDTH)}      40        2          0     5.0%     0.0%`,
      `2026-12-09  ${blank}       5        0          0     0.0%        -`,
      `2026-12-10  ${'█'.repeat(BAR_WIDTH)}      80        4          4     5.0%   100.0%`,
    ]);
  });

  it('sums the funnel over the window, and says what the rates are', () => {
    expect(lines.slice(7, 9)).toEqual([
      `${'last 5 days'.padEnd(12 + BAR_WIDTH)}     125        6          4     4.8%    66.7%`,
      'sign-up: signups per visit; confirm: confirmed per signup',
    ]);
  });

  it('then prints the whole list by language, source and status and its total, leaving out rows with none', () => {
    expect(lines.slice(9)).toEqual([
      '',
      'By language',
      'nl          5',
      'en          2',
      '',
      'By source',
      // The column widens for the longest label, keeping a space after it.
      'newsletter    4',
      'direct        2',
      'instagram.com 1',
      '',
      'By status',
      'confirmed   4',
      'pending     3',
      '',
      'total       7',
      '',
    ]);
  });

  it('fits every line in 80 columns, also for a year of days, seven-digit counts and long sources', () => {
    const busy = waitlistStatsReport({
      perDay: Array.from({ length: 366 }, (_, index) => ({
        day: '2026-01-01',
        visits: 9_999_999,
        signups: index * 1000,
        confirmed: index * 1000,
      })),
      byLanguage: { nl: 1, en: 1, other: 0 },
      bySource: [['x'.repeat(40), 123_456_789]],
      byStatus: { confirmed: 1, pending: 1, bounced: 0, complained: 0 },
      total: 2,
    });

    expect(Math.max(...busy.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('draws no bars and divides nothing when the window has no visits and no signups', () => {
    const empty = waitlistStatsReport(waitlistStats([], { now: NOW, days: 3 })).split('\n');

    expect(empty.slice(2, 6)).toEqual([
      `2026-12-08  ${blank}       0        0          0        -        -`,
      `2026-12-09  ${blank}       0        0          0        -        -`,
      `2026-12-10  ${blank}       0        0          0        -        -`,
      `${'last 3 days'.padEnd(12 + BAR_WIDTH)}       0        0          0        -        -`,
    ]);
  });
});
