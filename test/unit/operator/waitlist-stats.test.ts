import { describe, expect, it } from 'vitest';
import { type SignupFacts, waitlistStats, waitlistStatsReport } from '../../../operator/waitlist-stats';

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
  it('counts by the UTC day in a window that ends today, whatever offset the time was written with', () => {
    const stats = waitlistStats(
      [
        signup('2026-11-11T00:00:00.000Z'), // the 30th day counting today
        signup('2026-11-10T23:59:59.999Z'), // the 31st: in the totals only
        // 00:30 in Amsterdam on the 10th is still the 9th in UTC.
        signup('2026-12-10T00:30:00+01:00'),
        signup('2026-12-10T00:00:00.000Z'),
        signup('2026-12-11T00:00:00.000Z'), // later than today
        signup('yesterday'),
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.perDay).toHaveLength(30);
    expect(stats.perDay.at(-1)?.day).toBe('2026-12-10');
    expect(signupsOn(stats)).toEqual({ '2026-11-11': 1, '2026-12-09': 1, '2026-12-10': 1 });
    expect(stats.total).toBe(6);
  });

  it('counts a confirmation on its own UTC day, and sums the visits of the days in the window', () => {
    const stats = waitlistStats(
      [
        { ...signup('2026-12-08T10:00:00.000Z', 'nl', 'confirmed'), confirmedAt: '2026-12-10T09:00:00.000Z' },
        { ...signup('2026-10-01T10:00:00.000Z', 'nl', 'confirmed'), confirmedAt: '2026-10-01T11:00:00.000Z' },
      ],
      { now: NOW, days: 3, visits: { '2026-12-10': { nl: 12, en: 3 }, '2026-11-10': { nl: 1000 } } },
    );

    expect(stats.perDay).toEqual([
      { day: '2026-12-08', visits: 0, signups: 1, confirmed: 0 },
      { day: '2026-12-09', visits: 0, signups: 0, confirmed: 0 },
      { day: '2026-12-10', visits: 15, signups: 0, confirmed: 1 },
    ]);
  });

  it('totals by language, status (a bounce or complaint its own) and source, a value the API would not keep as direct', () => {
    const stats = waitlistStats(
      [
        { ...signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'), source: { utmSource: 'newsletter' } },
        {
          ...signup('2026-12-10T08:00:00.000Z', 'en'),
          source: { utmSource: 'flyer', referrer: 'instagram.com' },
        },
        { ...signup('2026-12-09T08:00:00.000Z', 'de'), source: { referrer: 'instagram.com' } },
        { ...signup('2026-12-09T08:00:00.000Z', 'nl', 'confirmed'), mailSuppressed: 'complaint' },
        {
          ...signup('2026-12-09T08:00:00.000Z'),
          mailSuppressed: 'bounce',
          source: { utmSource: '<script>' },
        },
        { ...signup('2026-12-09T08:00:00.000Z'), source: { referrer: 'https://evil.example/path' } },
      ],
      { now: NOW, days: 30 },
    );

    expect(stats.byLanguage).toEqual({ nl: 4, en: 1, other: 1 });
    expect(stats.byStatus).toEqual({ confirmed: 1, pending: 3, bounced: 1, complained: 1 });
    expect(stats.bySource).toEqual([
      ['direct', 3],
      ['flyer', 1],
      ['instagram.com', 1],
      ['newsletter', 1],
    ]);
  });
});

describe('waitlistStatsReport', () => {
  const blank = ' '.repeat(20);

  it('charts each day with a bar scaled to the busiest and its funnel, sums the window, then the totals', () => {
    const records = [
      ...Array.from({ length: 3 }, () => ({
        ...signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'),
        confirmedAt: '2026-12-10T08:10:00.000Z',
        source: { utmSource: 'newsletter' },
      })),
      { ...signup('2026-12-08T08:00:00.000Z', 'en'), source: { referrer: 'instagram.com' } },
      signup('2026-10-01T09:00:00.000Z'),
    ];
    const visits = { '2026-12-08': { nl: 30, en: 10 }, '2026-12-09': { en: 5 }, '2026-12-10': { nl: 80 } };

    const report = waitlistStatsReport(waitlistStats(records, { now: NOW, days: 4, visits }));

    expect(report.split('\n')).toEqual([
      'Visits → signups → confirmed per day (UTC), the last 4 days',
      `${blank}              visits  signups  confirmed  sign-up  confirm`,
      `2026-12-07  ${blank}       0        0          0        -        -`,
      `2026-12-08  ${'██████▋'.padEnd(20)}      40        1          0     2.5%     0.0%`,
      `2026-12-09  ${blank}       5        0          0     0.0%        -`,
      `2026-12-10  ${'█'.repeat(20)}      80        3          3     3.8%   100.0%`,
      `${'last 4 days'.padEnd(32)}     125        4          3     3.2%    75.0%`,
      'sign-up: signups per visit; confirm: confirmed per signup',
      '',
      'By language',
      'nl          4',
      'en          1',
      '',
      'By source',
      // The column widens for the longest label, keeping a space after it.
      'newsletter    3',
      'direct        1',
      'instagram.com 1',
      '',
      'By status',
      'confirmed   3',
      'pending     2',
      '',
      'total       5',
      '',
    ]);
  });

  it('fits every line in 80 columns for a year of days, seven-digit counts and long sources; >999% past that', () => {
    const report = waitlistStatsReport({
      perDay: Array.from({ length: 366 }, (_, index) => ({
        day: '2026-01-01',
        visits: index === 1 ? 1 : 9_999_999,
        signups: index * 1000,
        confirmed: index * 1000,
      })),
      byLanguage: { nl: 1, en: 1, other: 0 },
      bySource: [['x'.repeat(40), 123_456_789]],
      byStatus: { confirmed: 1, pending: 1, bounced: 0, complained: 0 },
      total: 2,
    });

    expect(Math.max(...report.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(report).toContain(' >999%');
    // A day of one signup among 365,000 still shows a sliver.
    expect(report.split('\n')[3]).toMatch(/^2026-01-01 {2}▏ /);
  });
});
