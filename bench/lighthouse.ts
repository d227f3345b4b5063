/** Lighthouse's mobile preset on the built page as the local runner serves it, a fresh Chromium each run. */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../frontend/scripts/chromium';
import { type BudgetCheck, describeBudget, evaluateBudget, LIGHTHOUSE_BUDGETS } from './budgets';
import { assertBuilt, DIST_DIR } from './bundle';
import { type BenchSection, kb, median, ms } from './report';
import { startRunnerProcess } from './runner-process';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

type LighthouseRun = ReturnType<typeof summarize>;
type PageResult = ReturnType<typeof pageResult>;

export type PagesMeasurement = Awaited<ReturnType<typeof measurePages>>;

export function chromiumVersion(): string {
  const { stdout } = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return stdout?.match(/[\d.]+/)?.[0] ?? 'not found';
}

async function runLighthouse(url: string): Promise<{ run: LighthouseRun; lighthouseVersion: string }> {
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  });
  try {
    const result = await Promise.race([
      lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        disableFullPageScreenshot: true,
      }),
      sleep(120_000, undefined, { ref: false }),
    ]);
    if (!result) throw new Error(`Lighthouse on ${url} returned nothing within 120 s`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    return { run: summarize(lhr), lighthouseVersion: lhr.lighthouseVersion };
  } finally {
    chrome.kill();
  }
}

function summarize(lhr: Result) {
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse reported no ${id}`);
    return value;
  };
  const items = <Item>(id: string) =>
    (lhr.audits[id]?.details as { items?: Item[] } | undefined)?.items ?? [];
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const lcpNode = items<{ items?: { node?: { nodeLabel?: string; snippet?: string } }[] }>(
    'largest-contentful-paint-element',
  )[0]?.items?.[0]?.node;
  // A text element's breakdown is its first byte and its render delay; an image adds its load delay and time.
  const lcpWaitsForResource = (
    items<{ items?: { subpart?: string }[] }>('lcp-breakdown-insight')[0]?.items ?? []
  ).some(({ subpart = '' }) => subpart.startsWith('resourceLoad'));
  const failingAudits = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter(({ id, weight }) => {
        const audit = lhr.audits[id];
        return weight > 0 && audit && audit.score !== null && audit.score < 1;
      })
      .map(({ id }) => id),
  );
  return {
    scores,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    lcpElement: (lcpNode?.snippet ?? lcpNode?.nodeLabel ?? 'unknown').slice(0, 120),
    paintWaitsFor: [
      ...items<{ url?: string }>('render-blocking-insight').map(({ url = '' }) => url),
      ...(lcpWaitsForResource ? [`the resource of ${lcpNode?.nodeLabel ?? 'the largest element'}`] : []),
    ],
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    speedIndexMs: numeric('speed-index'),
    totalByteWeight: numeric('total-byte-weight'),
    requests: items<{ numRequests?: number }>('diagnostics')[0]?.numRequests ?? 0,
    failingAudits: [...new Set(failingAudits)],
  };
}

const MEDIANS = ['fcpMs', 'lcpMs', 'tbtMs', 'cls', 'speedIndexMs', 'totalByteWeight', 'requests'] as const;

function pageResult(path: string, runs: LighthouseRun[]) {
  const medianOf = (pick: (run: LighthouseRun) => number) => median(runs.map(pick));
  const failing = new Map<string, number>();
  for (const id of runs.flatMap((run) => run.failingAudits)) failing.set(id, (failing.get(id) ?? 0) + 1);
  return {
    path,
    median: {
      scores: Object.fromEntries(
        CATEGORIES.map((category) => [category, medianOf((run) => run.scores[category])]),
      ) as Record<Category, number>,
      ...(Object.fromEntries(MEDIANS.map((key) => [key, medianOf((run) => run[key])])) as Record<
        (typeof MEDIANS)[number],
        number
      >),
    },
    failingAudits: [...failing].map(([id, count]) => ({ id, runs: count })),
    runs,
  };
}

/**
 * `runsPerPage` runs of each page, one after another and in turn (`/`, `/en/`, `/`, …), so that whatever
 * slows the machine for a while slows every page alike; the runner serves dist/ from a process of its own.
 */
export async function measurePages({ log = (_line: string) => {} } = {}) {
  const { pages: paths, runsPerPage } = LIGHTHOUSE_BUDGETS;
  assertBuilt();
  const runner = await startRunnerProcess(':memory:', DIST_DIR);
  try {
    let lighthouseVersion = '';
    const runsByPath = new Map<string, LighthouseRun[]>(paths.map((path) => [path, []]));
    for (let index = 0; index < runsPerPage; index += 1) {
      for (const path of paths) {
        const url = new URL(path, runner.url).href;
        // A trace Lighthouse failed to record (NO_NAVSTART, NO_FCP) on a busy machine is measured once more.
        const measured = await runLighthouse(url).catch((error: Error) => {
          log(`  ${error.message}; measuring once more`);
          return runLighthouse(url);
        });
        lighthouseVersion = measured.lighthouseVersion;
        runsByPath.get(path)?.push(measured.run);
        const { scores, fcpMs, lcpMs } = measured.run;
        log(
          `  ${path} run ${index + 1}/${runsPerPage}: performance ${scores.performance}, FCP ${ms(fcpMs)}, ` +
            `LCP ${ms(lcpMs)}, failing: ${measured.run.failingAudits.join(', ') || 'none'}`,
        );
      }
    }
    const pages = paths.map((path) => pageResult(path, runsByPath.get(path) ?? []));
    return { lighthouseVersion, chromium: chromiumVersion(), runsPerPage, pages };
  } finally {
    await runner.stop();
  }
}

function failingAuditsOf(page: PageResult): string {
  if (page.failingAudits.length === 0) return 'no failing audits';
  return `failing audits: ${page.failingAudits.map(({ id, runs }) => `${id} (${runs}/${page.runs.length} runs)`).join(', ')}`;
}

export const PAGE_BUDGET_CHECKS: BudgetCheck<PagesMeasurement>[] = LIGHTHOUSE_BUDGETS.pages.flatMap(
  (path) => {
    const pageOf = (pages: PagesMeasurement) => pages.pages.find((page) => page.path === path) as PageResult;
    const score = (category: Category, limit: number, target?: number): BudgetCheck<PagesMeasurement> => ({
      name: `Lighthouse ${category} score of ${path}`,
      kind: 'min',
      limit,
      target,
      measure: (pages) => pageOf(pages).median.scores[category],
      format: String,
      explain: (pages) => failingAuditsOf(pageOf(pages)),
    });
    return [
      ...Object.entries(LIGHTHOUSE_BUDGETS.minScores).map(([category, limit]) =>
        score(category as Category, limit),
      ),
      score('performance', LIGHTHOUSE_BUDGETS.minPerformanceScore, LIGHTHOUSE_BUDGETS.targetPerformanceScore),
      {
        name: `Largest Contentful Paint of ${path}`,
        kind: 'max',
        limit: LIGHTHOUSE_BUDGETS.maxLcpMs,
        measure: (pages) => pageOf(pages).median.lcpMs,
        format: ms,
        explain: (pages) => {
          const page = pageOf(pages);
          const elements = [...new Set(page.runs.map((run) => run.lcpElement))];
          return `largest element: ${elements.join(' / ')}; ${failingAuditsOf(page)}`;
        },
      },
      {
        name: `Requests the first or largest paint of ${path} waits for`,
        kind: 'max',
        limit: 0,
        measure: (pages) => Math.max(...pageOf(pages).runs.map((run) => run.paintWaitsFor.length)),
        format: String,
        explain: (pages) => {
          const waitedFor = [...new Set(pageOf(pages).runs.flatMap((run) => run.paintWaitsFor))];
          return waitedFor.length === 0 ? 'none in any run' : `in some run: ${waitedFor.join(', ')}`;
        },
      },
    ];
  },
);

const LABELS = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best practices',
  seo: 'SEO',
};

/** The page's table, with the bundle's first-load bytes beside Lighthouse's byte weight when given. */
export function pageSection(pages: PagesMeasurement, firstLoadBytes?: number): BenchSection {
  const budget = (name: string) =>
    describeBudget(
      PAGE_BUDGET_CHECKS.find((check) => check.name.startsWith(name)) as BudgetCheck<PagesMeasurement>,
    );
  const columns: [string, (page: PageResult) => string | number, string?][] = [
    ['Page', ({ path }) => `\`${path}\``, 'Budget'],
    ...CATEGORIES.map((category): [string, (page: PageResult) => number, string] => [
      LABELS[category],
      ({ median }) => median.scores[category],
      budget(`Lighthouse ${category} score`),
    ]),
    ['FCP', ({ median }) => ms(median.fcpMs)],
    ['LCP', ({ median }) => ms(median.lcpMs), budget('Largest Contentful Paint')],
    [
      'Paint waits for (requests)',
      ({ runs }) => Math.max(...runs.map((run) => run.paintWaitsFor.length)),
      budget('Requests the first or largest paint'),
    ],
    ['TBT', ({ median }) => ms(median.tbtMs)],
    ['CLS', ({ median }) => median.cls.toFixed(3)],
    ['Speed Index', ({ median }) => ms(median.speedIndexMs)],
    ['Bytes', ({ median }) => kb(median.totalByteWeight)],
    ['Requests', ({ median }) => median.requests],
  ];
  const home = pages.pages.find((page) => page.path === '/');
  const budgets = PAGE_BUDGET_CHECKS.map((check) => evaluateBudget(check, pages));
  return {
    name: 'page',
    title: `Page (Lighthouse ${pages.lighthouseVersion}, mobile, simulated throttling, median of ${pages.runsPerPage})`,
    results: { ...pages, budgets },
    budgets,
    table: {
      head: columns.map(([head]) => head),
      rows: [
        ...pages.pages.map((page) => columns.map(([, cell]) => cell(page))),
        columns.map(([, , budgetCell = '']) => budgetCell),
      ],
    },
    notes: [
      `Paint waits for: the most, over the runs, of the requests the first or the largest paint waited for (render-blocking requests, and an image as the largest element).`,
      `Chromium ${pages.chromium}, the built page served by the local runner. Performance ${LIGHTHOUSE_BUDGETS.minPerformanceScore} is the floor in CI, ${LIGHTHOUSE_BUDGETS.targetPerformanceScore} the target.`,
      ...pages.pages.map(({ path, failingAudits, runs }) =>
        failingAudits.length === 0
          ? `\`${path}\`: no audit that counts towards a score failed.`
          : `\`${path}\` failing audits: ${failingAudits.map(({ id, runs: count }) => `\`${id}\` (${count}/${runs.length} runs)`).join(', ')}.`,
      ),
      ...(home && firstLoadBytes !== undefined
        ? [
            `Cross-check: Lighthouse's byte weight of \`/\` is ${kb(home.median.totalByteWeight)} in ${home.median.requests} requests (headers included, and the manifest icon Chromium picks), the bundle's first-load bytes ${kb(firstLoadBytes)} (bodies only).`,
          ]
        : []),
    ],
  };
}
