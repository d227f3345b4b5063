import { expect, it } from 'vitest';
import { type SignupFacts, waitlistStats, waitlistStatsReport } from '../../../operator/waitlist-stats';

const NOW = new Date('2026-12-10T15:30:00.000Z');
const signup = (createdAt: string, language = 'nl', status = 'pending'): SignupFacts => ({
  createdAt,
  language,
  status,
});

it('charts each UTC day of the window ending today, a bar scaled to the busiest and its funnel, sums the window, then totals the whole list', () => {
  const records = [
    ...Array.from({ length: 3 }, () => ({
      ...signup('2026-12-10T08:00:00.000Z', 'nl', 'confirmed'),
      confirmedAt: '2026-12-10T08:10:00.000Z',
      source: { utmSource: 'newsletter' },
    })),
    { ...signup('2026-12-08T08:00:00.000Z', 'en'), source: { referrer: 'instagram.com' } },
    signup('2026-12-06T23:59:59.999Z'), // the day before the window: in the totals only
    signup('2026-12-11T00:00:00.000Z'), // later than today: in the totals only
    // 00:30 in Amsterdam on the 8th is still the 7th in UTC; confirmed on a later day.
    { ...signup('2026-12-08T00:30:00+01:00', 'de', 'confirmed'), confirmedAt: '2026-12-09T09:00:00.000Z' },
    // A source the API would not keep counts as direct; a do-not-mail mark is its own status.
    { ...signup('yesterday', 'nl', 'confirmed'), mailSuppressed: 'complaint', source: { utmSource: '<b>' } },
    {
      ...signup('2026-12-09T08:00:00.000Z'),
      mailSuppressed: 'bounce',
      source: { referrer: 'https://x.nl/p' },
    },
  ];
  const visits = {
    '2026-12-06': { nl: 1000 },
    '2026-12-08': { nl: 30, en: 10 },
    '2026-12-09': { en: 5 },
    '2026-12-10': { nl: 80 },
  };

  const report = waitlistStatsReport(waitlistStats(records, { now: NOW, days: 4, visits }));

  const blank = ' '.repeat(20);
  expect(report.split('\n')).toEqual([
    'Visits → signups → confirmed per day (UTC), the last 4 days',
    `${blank}              visits  signups  confirmed  sign-up  confirm`,
    `2026-12-07  ${'██████▋'.padEnd(20)}       0        1          0        -     0.0%`,
    `2026-12-08  ${'██████▋'.padEnd(20)}      40        1          0     2.5%     0.0%`,
    `2026-12-09  ${'██████▋'.padEnd(20)}       5        1          1    20.0%   100.0%`,
    `2026-12-10  ${'█'.repeat(20)}      80        3          3     3.8%   100.0%`,
    `${'last 4 days'.padEnd(32)}     125        6          4     4.8%    66.7%`,
    'sign-up: signups per visit; confirm: confirmed per signup',
    '',
    'By language',
    'nl          7',
    'en          1',
    'other       1',
    '',
    'By source',
    // The column widens for the longest label, keeping a space after it.
    'direct        5',
    'newsletter    3',
    'instagram.com 1',
    '',
    'By status',
    'confirmed   4',
    'pending     3',
    'bounced     1',
    'complained  1',
    '',
    'total       9',
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
