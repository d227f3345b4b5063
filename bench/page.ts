/**
 * The page as a phone sees it: Lighthouse's mobile preset on `/` and `/en/`, medians over the runs, next
 * to the budgets `npm test` holds them to.
 */
import { describeBudget, evaluateBudget, LIGHTHOUSE_BUDGETS } from './budgets';
import { PAGE_BUDGET_CHECKS, type PageResult, type PagesMeasurement } from './lighthouse';
import type { BenchSection } from './report';
import { kb, ms } from './table';

export function pageSection(pages: PagesMeasurement, firstLoadBytes?: number): BenchSection {
  const checkFor = (name: string) => PAGE_BUDGET_CHECKS.find((check) => check.name.startsWith(name));
  const budget = (name: string) => {
    const check = checkFor(name);
    return check ? describeBudget(check) : '';
  };
  const row = ({ path, median, runs }: PageResult) => [
    `\`${path}\``,
    median.scores.performance,
    median.scores.accessibility,
    median.scores['best-practices'],
    median.scores.seo,
    ms(median.fcpMs),
    ms(median.lcpMs),
    Math.max(...runs.map((run) => run.paintWaitsFor.length)),
    ms(median.tbtMs),
    median.cls.toFixed(3),
    ms(median.speedIndexMs),
    kb(median.totalByteWeight),
    median.requests,
  ];
  const rows = pages.pages.map(row);
  const budgetRow = [
    'Budget',
    budget('Lighthouse performance score'),
    budget('Lighthouse accessibility score'),
    budget('Lighthouse best-practices score'),
    budget('Lighthouse seo score'),
    '',
    budget('Largest Contentful Paint'),
    budget('Requests the first or largest paint'),
    '',
    '',
    '',
    '',
    '',
  ];
  const failing = pages.pages.map(({ path, failingAudits, runs }) =>
    failingAudits.length === 0
      ? `\`${path}\`: no audit that counts towards a score failed.`
      : `\`${path}\` failing audits: ${failingAudits.map(({ id, runs: count }) => `\`${id}\` (${count}/${runs.length} runs)`).join(', ')}.`,
  );
  const home = pages.pages.find((page) => page.path === '/');
  const crossCheck =
    home && firstLoadBytes !== undefined
      ? [
          `Cross-check: Lighthouse's byte weight of \`/\` is ${kb(home.median.totalByteWeight)} in ${home.median.requests} requests (headers included, and the manifest icon Chromium picks), the bundle's first-load bytes ${kb(firstLoadBytes)} (bodies only).`,
        ]
      : [];
  return {
    name: 'page',
    title: `Page (Lighthouse ${pages.lighthouseVersion}, mobile, simulated throttling, median of ${pages.runsPerPage})`,
    results: {
      ...pages,
      budgets: PAGE_BUDGET_CHECKS.map((check) => evaluateBudget(check, pages)),
    },
    table: {
      head: [
        'Page',
        'Performance',
        'Accessibility',
        'Best practices',
        'SEO',
        'FCP',
        'LCP',
        'Paint waits for (requests)',
        'TBT',
        'CLS',
        'Speed Index',
        'Bytes',
        'Requests',
      ],
      rows: [...rows, budgetRow],
    },
    notes: [
      `Paint waits for: the most, over the runs, of the requests the first or the largest paint waited for (render-blocking requests, and an image as the largest element).`,
      `Chromium ${pages.chromium}, the built page served by the local runner. Performance ${LIGHTHOUSE_BUDGETS.minPerformanceScore} is the floor in CI, ${LIGHTHOUSE_BUDGETS.targetPerformanceScore} the target.`,
      ...failing,
      ...crossCheck,
    ],
  };
}
