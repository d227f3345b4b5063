/**
 * Lighthouse on the built page as the local runner serves it: mobile preset with simulated throttling, a
 * fresh Chromium for every run, medians over the runs. Localhost only, and every step has a time limit.
 */
import { execFileSync } from 'node:child_process';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../frontend/scripts/chromium';
import { type BudgetCheck, LIGHTHOUSE_BUDGETS } from './budgets';
import { assertBuilt, DIST_DIR } from './bundle';
import { startRunnerProcess } from './runner-process';
import { median } from './statistics';
import { ms } from './table';

const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

const RUN_TIMEOUT_MS = 120_000;

export interface LighthouseRun {
  /** 0-100, as the report shows them. */
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  /** The element Lighthouse found largest, as its report shows it. */
  lcpElement: string;
  /**
   * The requests the first or the largest paint waited for: render-blocking requests, and the largest
   * element's own resource when it is an image (a text element has none).
   */
  paintWaitsFor: string[];
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  totalByteWeight: number;
  requests: number;
  /** What the page fetched, site paths with the bytes transferred (headers included). */
  transfers: { path: string; transferBytes: number }[];
  /** Audits that count towards a category's score and scored below 1, e.g. `color-contrast`. */
  failingAudits: string[];
  warnings: string[];
}

export interface PageResult {
  path: string;
  median: Omit<LighthouseRun, 'failingAudits' | 'warnings' | 'transfers' | 'lcpElement' | 'paintWaitsFor'>;
  /** Each audit that failed in any run, with the number of runs it failed in. */
  failingAudits: { id: string; runs: number }[];
  runs: LighthouseRun[];
}

export interface PagesMeasurement {
  lighthouseVersion: string;
  chromium: string;
  runsPerPage: number;
  pages: PageResult[];
}

export function chromiumVersion(): string {
  try {
    const output = execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return output.match(/[\d.]+/)?.[0] ?? output.trim();
  } catch {
    return 'not found';
  }
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One Lighthouse run in a Chromium of its own, closed afterwards whatever happens. */
export async function runLighthouse(url: string): Promise<{ run: LighthouseRun; lighthouseVersion: string }> {
  if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(url)) throw new Error(`not a local URL: ${url}`);
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
    handleSIGINT: true,
  });
  try {
    const result = await withTimeout(
      lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        maxWaitForLoad: 45_000,
        disableFullPageScreenshot: true,
      }),
      RUN_TIMEOUT_MS,
      `Lighthouse on ${url}`,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    return { run: summarize(lhr), lighthouseVersion: lhr.lighthouseVersion };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) on a busy machine: that is a
 * failed measurement, not a slow page, so it is measured once more in a fresh Chromium.
 */
async function runLighthouseWithRetry(url: string, log: (line: string) => void) {
  try {
    return await runLighthouse(url);
  } catch (error) {
    log(`  ${(error as Error).message}; measuring once more`);
    return runLighthouse(url);
  }
}

function summarize(lhr: Result): LighthouseRun {
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse reported no ${id}`);
    return value;
  };
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const networkRequests = lhr.audits['network-requests']?.details as
    | { items?: { url?: string; transferSize?: number }[] }
    | undefined;
  const transfers = (networkRequests?.items ?? []).map(({ url = '', transferSize = 0 }) => ({
    path: url.startsWith('http') ? new URL(url).pathname : url.slice(0, 40),
    transferBytes: transferSize,
  }));
  const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { nodeLabel?: string; snippet?: string } }[] }[] }
    | undefined;
  const lcpNode = lcpDetails?.items?.[0]?.items?.[0]?.node;
  const renderBlocking = lhr.audits['render-blocking-insight']?.details as
    | { items?: { url?: string }[] }
    | undefined;
  // A text element's breakdown is its first byte and its render delay; an image adds its load delay and time.
  const lcpBreakdown = lhr.audits['lcp-breakdown-insight']?.details as
    | { items?: { items?: { subpart?: string }[] }[] }
    | undefined;
  const lcpWaitsForResource = (lcpBreakdown?.items?.[0]?.items ?? []).some(({ subpart = '' }) =>
    subpart.startsWith('resourceLoad'),
  );
  const diagnostics = lhr.audits.diagnostics?.details as { items?: { numRequests?: number }[] } | undefined;
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
      ...(renderBlocking?.items ?? []).map(({ url = '' }) => url),
      ...(lcpWaitsForResource ? [`the resource of ${lcpNode?.nodeLabel ?? 'the largest element'}`] : []),
    ],
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    speedIndexMs: numeric('speed-index'),
    totalByteWeight: numeric('total-byte-weight'),
    requests: diagnostics?.items?.[0]?.numRequests ?? 0,
    transfers,
    failingAudits: [...new Set(failingAudits)],
    warnings: lhr.runWarnings,
  };
}

function medianOf(runs: LighthouseRun[]): PageResult['median'] {
  const of = (pick: (run: LighthouseRun) => number) => median(runs.map(pick));
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, of((run) => run.scores[category])]),
    ) as Record<Category, number>,
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    speedIndexMs: of((run) => run.speedIndexMs),
    totalByteWeight: of((run) => run.totalByteWeight),
    requests: of((run) => run.requests),
  };
}

function pageResult(path: string, runs: LighthouseRun[]): PageResult {
  const failing = new Map<string, number>();
  for (const id of runs.flatMap((run) => run.failingAudits)) failing.set(id, (failing.get(id) ?? 0) + 1);
  return {
    path,
    median: medianOf(runs),
    failingAudits: [...failing].map(([id, count]) => ({ id, runs: count })),
    runs,
  };
}

/**
 * Lighthouse `runsPerPage` times on each page, one run after another (runs side by side would slow each
 * other down) and in turn (`/`, `/en/`, `/`, …), so that whatever slows the machine for a while slows
 * every page alike. The local runner serves dist/ in a process of its own, so serving never waits on
 * Lighthouse.
 */
export async function measurePages({
  paths = [...LIGHTHOUSE_BUDGETS.pages] as string[],
  runsPerPage = LIGHTHOUSE_BUDGETS.runsPerPage as number,
  log = (_line: string) => {},
} = {}): Promise<PagesMeasurement> {
  assertBuilt();
  const runner = await startRunnerProcess(':memory:', DIST_DIR);
  try {
    let lighthouseVersion = '';
    const runsByPath = new Map<string, LighthouseRun[]>(paths.map((path) => [path, []]));
    for (let index = 0; index < runsPerPage; index += 1) {
      for (const path of paths) {
        const measured = await runLighthouseWithRetry(new URL(path, runner.url).href, log);
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

function failingAuditsOf(page: PageResult | undefined): string {
  const failing = page?.failingAudits ?? [];
  if (failing.length === 0) return 'no failing audits';
  return `failing audits: ${failing.map(({ id, runs }) => `${id} (${runs}/${page?.runs.length} runs)`).join(', ')}`;
}

function pageOf(measurement: PagesMeasurement, path: string): PageResult {
  const page = measurement.pages.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`${path} was not measured`);
  return page;
}

const score = (value: number) => String(value);

/** Per page: the three category scores that must be perfect, performance, LCP, and LCP over the floor's. */
export const PAGE_BUDGET_CHECKS: BudgetCheck<PagesMeasurement>[] = LIGHTHOUSE_BUDGETS.pages.flatMap(
  (path) => [
    ...Object.entries(LIGHTHOUSE_BUDGETS.minScores).map(
      ([category, limit]): BudgetCheck<PagesMeasurement> => ({
        name: `Lighthouse ${category} score of ${path}`,
        kind: 'min',
        limit,
        measure: (pages) => pageOf(pages, path).median.scores[category as Category],
        format: score,
        explain: (pages) => failingAuditsOf(pageOf(pages, path)),
      }),
    ),
    {
      name: `Lighthouse performance score of ${path}`,
      kind: 'min',
      limit: LIGHTHOUSE_BUDGETS.minPerformanceScore,
      target: LIGHTHOUSE_BUDGETS.targetPerformanceScore,
      measure: (pages) => pageOf(pages, path).median.scores.performance,
      format: score,
      explain: (pages) => failingAuditsOf(pageOf(pages, path)),
    },
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
  ],
);
