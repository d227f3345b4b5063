/** Lighthouse's mobile preset on the built page as the local runner serves it, a fresh Chromium each run. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function pageResult(path: string, bare: boolean, runs: LighthouseRun[]) {
  const medianOf = (pick: (run: LighthouseRun) => number) => median(runs.map(pick));
  const failing = new Map<string, number>();
  for (const id of runs.flatMap((run) => run.failingAudits)) failing.set(id, (failing.get(id) ?? 0) + 1);
  return {
    path,
    bare,
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

/** The prerendered page without its scripts, as it stands before any of its JavaScript runs. */
export const withoutScripts = (html: string) =>
  html.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>|<link\b[^>]*\brel=["']?modulepreload\b[^>]*>/gi, '');

/** A copy of dist/ whose landing pages have no script, to be served as dist/ is. */
function copyDistWithoutScripts(): string {
  const copy = mkdtempSync(join(tmpdir(), 'mandje-bench-bare-'));
  cpSync(DIST_DIR, copy, { recursive: true });
  for (const path of LIGHTHOUSE_BUDGETS.pages) {
    const file = join(copy, path, 'index.html');
    writeFileSync(file, withoutScripts(readFileSync(file, 'utf8')));
  }
  return copy;
}

/**
 * `runsPerPage` runs of each page, one after another and in turn (`/`, `/en/`, `/`, …), so that whatever
 * slows the machine for a while slows every page alike; the runner serves dist/ from a process of its own.
 * With `bareTwins`, each page also beside its copy without scripts, served by a second runner.
 */
export async function measurePages({ log = (_line: string) => {}, bareTwins = false } = {}) {
  const { pages: paths, runsPerPage } = LIGHTHOUSE_BUDGETS;
  assertBuilt();
  const runners = [await startRunnerProcess(':memory:', DIST_DIR)];
  let bareDir: string | undefined;
  try {
    if (bareTwins) {
      bareDir = copyDistWithoutScripts();
      runners.push(await startRunnerProcess(':memory:', bareDir));
    }
    const pages = paths.flatMap((path) =>
      runners.map((runner, index) => ({
        path,
        bare: index > 0,
        url: new URL(path, runner.url).href,
        runs: [] as LighthouseRun[],
      })),
    );
    let lighthouseVersion = '';
    for (let index = 0; index < runsPerPage; index += 1) {
      for (const page of pages) {
        // A trace Lighthouse failed to record (NO_NAVSTART, NO_FCP) on a busy machine is measured once more.
        const measured = await runLighthouse(page.url).catch((error: Error) => {
          log(`  ${error.message}; measuring once more`);
          return runLighthouse(page.url);
        });
        lighthouseVersion = measured.lighthouseVersion;
        page.runs.push(measured.run);
        const { scores, fcpMs, lcpMs, tbtMs, failingAudits } = measured.run;
        log(
          `  ${pageLabel(page)} run ${index + 1}/${runsPerPage}: performance ${scores.performance}, FCP ${ms(fcpMs)}, ` +
            `LCP ${ms(lcpMs)}, TBT ${ms(tbtMs)}, failing: ${failingAudits.join(', ') || 'none'}`,
        );
      }
    }
    return {
      lighthouseVersion,
      chromium: chromiumVersion(),
      runsPerPage,
      pages: pages.map(({ path, bare, runs }) => pageResult(path, bare, runs)),
    };
  } finally {
    for (const runner of runners) await runner.stop();
    if (bareDir) rmSync(bareDir, { recursive: true, force: true });
  }
}

const pageLabel = ({ path, bare }: { path: string; bare: boolean }) =>
  `\`${path}\`${bare ? ' without script' : ''}`;
const pageOf = (pages: PagesMeasurement, path: string, bare = false) =>
  pages.pages.find((page) => page.path === path && page.bare === bare) as PageResult;

function failingAuditsOf(page: PageResult): string {
  if (page.failingAudits.length === 0) return 'no audit that counts towards a score failed';
  return `failing audits: ${page.failingAudits.map(({ id, runs }) => `\`${id}\` (${runs}/${page.runs.length} runs)`).join(', ')}`;
}

export const PAGE_BUDGET_CHECKS: BudgetCheck<PagesMeasurement>[] = LIGHTHOUSE_BUDGETS.pages.flatMap(
  (path) => {
    const score = (category: Category, limit: number, target?: number): BudgetCheck<PagesMeasurement> => ({
      name: `Lighthouse ${category} score of ${path}`,
      kind: 'min',
      limit,
      target,
      measure: (pages) => pageOf(pages, path).median.scores[category],
      format: String,
      explain: (pages) => failingAuditsOf(pageOf(pages, path)),
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
        measure: (pages) => pageOf(pages, path).median.lcpMs,
        format: ms,
        explain: (pages) => {
          const page = pageOf(pages, path);
          const elements = [...new Set(page.runs.map((run) => run.lcpElement))];
          return `largest element: ${elements.join(' / ')}; ${failingAuditsOf(page)}`;
        },
      },
      {
        name: `Requests the first or largest paint of ${path} waits for`,
        kind: 'max',
        limit: 0,
        measure: (pages) => Math.max(...pageOf(pages, path).runs.map((run) => run.paintWaitsFor.length)),
        format: String,
        explain: (pages) => {
          const waitedFor = [...new Set(pageOf(pages, path).runs.flatMap((run) => run.paintWaitsFor))];
          return waitedFor.length === 0 ? 'none in any run' : `in some run: ${waitedFor.join(', ')}`;
        },
      },
    ];
  },
);

/** Reported by the bench, not held by test/budgets/ (LIGHTHOUSE_BUDGETS.maxTbtMs says why). */
const BENCH_ONLY_CHECKS = LIGHTHOUSE_BUDGETS.pages.map(
  (path): BudgetCheck<PagesMeasurement> => ({
    name: `Total Blocking Time of ${path}`,
    kind: 'max',
    limit: LIGHTHOUSE_BUDGETS.maxTbtMs,
    measure: (pages) => pageOf(pages, path).median.tbtMs,
    format: ms,
    explain: (pages) => `without its script ${ms(pageOf(pages, path, true).median.tbtMs)}`,
  }),
);

const LABELS = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best practices',
  seo: 'SEO',
};

/** The page's table, each page beside its bare twin, with the bundle's first-load bytes when given. */
export function pageSection(pages: PagesMeasurement, firstLoadBytes?: number): BenchSection {
  const checks = [...PAGE_BUDGET_CHECKS, ...BENCH_ONLY_CHECKS];
  const budget = (name: string) =>
    describeBudget(checks.find((check) => check.name.startsWith(name)) as BudgetCheck<PagesMeasurement>);
  const columns: [string, (page: PageResult) => string | number, string?][] = [
    ['Page', pageLabel, 'Budget'],
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
    ['TBT', ({ median }) => ms(median.tbtMs), `${budget('Total Blocking Time')} (bench only)`],
    ['CLS', ({ median }) => median.cls.toFixed(3)],
    ['Speed Index', ({ median }) => ms(median.speedIndexMs)],
    ['Bytes', ({ median }) => kb(median.totalByteWeight)],
    ['Requests', ({ median }) => median.requests],
  ];
  const home = pageOf(pages, '/');
  const budgets = checks.map((check) => evaluateBudget(check, pages));
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
      `"Without script" is the same prerendered page with its \`<script>\` elements removed, served the same way: the difference in TBT and in performance is what the page's script costs.`,
      `Paint waits for: the most, over the runs, of the requests the first or the largest paint waited for (render-blocking requests, and an image as the largest element).`,
      `Chromium ${pages.chromium}, the built page served by the local runner. Performance ${LIGHTHOUSE_BUDGETS.minPerformanceScore} is the floor in CI, ${LIGHTHOUSE_BUDGETS.targetPerformanceScore} the target; TBT is held to its budget by the bench alone.`,
      ...pages.pages.map((page) => `${pageLabel(page)}: ${failingAuditsOf(page)}.`),
      ...(firstLoadBytes === undefined
        ? []
        : [
            `Cross-check: Lighthouse's byte weight of \`/\` is ${kb(home.median.totalByteWeight)} in ${home.median.requests} requests (headers included, and the manifest icon Chromium picks), the bundle's first-load bytes ${kb(firstLoadBytes)} (bodies only).`,
          ]),
    ],
  };
}
