import { describe, expect, it } from 'vitest';
import { type SignupFacts, waitlistStats, waitlistStatsReport } from '../../../operator/waitlist-stats';

const NOW = new Date('2026-12-10T15:30:00.000Z');
const signup = (createdAt: string, language = 'nl', status = 'pending'): SignupFacts => ({
  createdAt,
  language,
  status,
});

it('counts by UTC day in a window ending today (signups by createdAt, confirmed by confirmedAt), totals by language, status and source', () => {
  const stats = waitlistStats(
    [
      signup('2026-11-10T23:59:59.999Z'), // the 31st day counting today: in the totals only
      { ...signup('2026-12-08T00:30:00+01:00', 'en', 'confirmed'), confirmedAt: '2026-12-10T09:00:00.000Z' },
      {
        ...signup('2026-12-10T00:00:00.000Z', 'de'),
        source: { utmSource: 'flyer', referrer: 'instagram.com' },
      },
      { ...signup('2026-12-11T00:00:00.000Z'), source: { referrer: 'instagram.com' } }, // later than today
      {
        ...signup('yesterday', 'nl', 'confirmed'),
        mailSuppressed: 'complaint',
        source: { utmSource: '<b>' },
      },
      {
        ...signup('2026-12-09T08:00:00.000Z'),
        mailSuppressed: 'bounce',
        source: { referrer: 'https://x.nl/p' },
      },
    ],
    { now: NOW, days: 30, visits: { '2026-12-10': { nl: 12, en: 3 }, '2026-11-10': { nl: 1000 } } },
  );

  expect(stats.perDay).toHaveLength(30);
  expect(stats.perDay[0]?.day).toBe('2026-11-11');
  // 00:30 in Amsterdam on the 8th is still the 7th in UTC.
  expect(stats.perDay.filter((day) => day.visits + day.signups + day.confirmed > 0)).toEqual([
    { day: '2026-12-07', visits: 0, signups: 1, confirmed: 0 },
    { day: '2026-12-09', visits: 0, signups: 1, confirmed: 0 },
    { day: '2026-12-10', visits: 15, signups: 1, confirmed: 1 },
  ]);
  expect(stats.total).toBe(6);
  expect(stats.byLanguage).toEqual({ nl: 4, en: 1, other: 1 });
  expect(stats.byStatus).toEqual({ confirmed: 1, pending: 3, bounced: 1, complained: 1 });
  // utm_source first, then the referrer; a value the API would not keep counts as direct.
  expect(stats.bySource).toEqual([
    ['direct', 4],
    ['flyer', 1],
    ['instagram.com', 1],
  ]);
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
