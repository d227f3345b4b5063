/** Lighthouse's mobile preset on the built page as `npm start` serves it, a fresh Chromium each run. */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../frontend/scripts/chromium';
import { type BudgetCheck, LIGHTHOUSE_BUDGETS } from './budgets';
import { assertBuilt, ROOT_DIR } from './bundle';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
type LighthouseRun = ReturnType<typeof summarize>;
export type PagesMeasurement = Awaited<ReturnType<typeof measurePages>>;

export const ms = (milliseconds: number) => `${Math.round(milliseconds).toLocaleString('en-GB')} ms`;
export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1] ?? Number.NaN;

export function chromiumVersion(): string {
  const { stdout } = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return stdout?.match(/[\d.]+/)?.[0] ?? 'not found';
}

async function runLighthouse(url: string) {
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
    if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
    return { run: summarize(result.lhr), lighthouseVersion: result.lhr.lighthouseVersion };
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
  const lcpNode = items<{ items?: { node?: { nodeLabel?: string; snippet?: string } }[] }>(
    'largest-contentful-paint-element',
  )[0]?.items?.[0]?.node;
  // A text element's breakdown is its first byte and its render delay; an image adds its load.
  const lcpWaitsForResource = (
    items<{ items?: { subpart?: string }[] }>('lcp-breakdown-insight')[0]?.items ?? []
  ).some(({ subpart = '' }) => subpart.startsWith('resourceLoad'));
  const failingAudits = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter(({ id, weight }) => weight > 0 && (lhr.audits[id]?.score ?? 1) < 1)
      .map(({ id }) => id),
  );
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
    ) as Record<Category, number>,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    lcpElement: (lcpNode?.snippet ?? lcpNode?.nodeLabel ?? 'unknown').slice(0, 120),
    paintWaitsFor: [
      ...items<{ url?: string }>('render-blocking-insight').map(({ url = '' }) => url),
      ...(lcpWaitsForResource ? [`the resource of ${lcpNode?.nodeLabel ?? 'the largest element'}`] : []),
    ],
    failingAudits: [...new Set(failingAudits)],
  };
}

/** `npm start`'s server on dist/, in memory, on a free port. */
async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/server.ts'], {
    cwd: ROOT_DIR,
    env: { ...process.env, PORT: '0', DATA_DIR: ':memory:', SIGNUP_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const started = (async () => {
    for await (const line of lines) {
      const url = line.match(/^Mandje is running at (\S+)/)?.[1];
      if (url) return url;
    }
    throw new Error('the server exited before it listened');
  })();
  // Read on, so its mail lines never fill the pipe.
  started.then(() => lines.on('line', () => {}));
  return { url: await started, stop: () => child.kill('SIGTERM') && once(child, 'exit') };
}

/**
 * `runsPerPage` runs of each page in turn (`/`, `/en/`, `/`, …), so that whatever slows the machine for a
 * while slows every page alike.
 */
export async function measurePages({ log = (_line: string) => {} } = {}) {
  const { pages: paths, runsPerPage } = LIGHTHOUSE_BUDGETS;
  assertBuilt();
  const server = await startServer();
  try {
    const pages = paths.map((path) => ({
      path,
      url: new URL(path, server.url).href,
      runs: [] as LighthouseRun[],
    }));
    let lighthouseVersion = '';
    for (let index = 0; index < runsPerPage; index += 1)
      for (const page of pages) {
        // A trace Lighthouse failed to record (NO_NAVSTART, NO_FCP) on a busy machine is measured once more.
        const measured = await runLighthouse(page.url).catch((error: Error) => {
          log(`  ${error.message}; measuring once more`);
          return runLighthouse(page.url);
        });
        lighthouseVersion = measured.lighthouseVersion;
        page.runs.push(measured.run);
        const { scores, lcpMs, tbtMs, failingAudits } = measured.run;
        log(
          `  ${page.path} run ${index + 1}/${runsPerPage}: performance ${scores.performance}, LCP ${ms(lcpMs)}, TBT ${ms(tbtMs)}, failing: ${failingAudits.join(', ') || 'none'}`,
        );
      }
    return {
      lighthouseVersion,
      chromium: chromiumVersion(),
      runsPerPage,
      pages: pages.map(({ path, runs }) => {
        const medianOf = (pick: (run: LighthouseRun) => number) => median(runs.map(pick));
        const scores = Object.fromEntries(
          CATEGORIES.map((category) => [category, medianOf((run) => run.scores[category])]),
        );
        const keys = ['fcpMs', 'lcpMs', 'tbtMs', 'cls'] as const;
        const timings = Object.fromEntries(keys.map((key) => [key, medianOf((run) => run[key])]));
        return {
          path,
          median: { scores, ...timings } as { scores: Record<Category, number> } & Record<
            (typeof keys)[number],
            number
          >,
          failingAudits: [...new Set(runs.flatMap((run) => run.failingAudits))],
          runs,
        };
      }),
    };
  } finally {
    await server.stop();
  }
}

type PageResult = PagesMeasurement['pages'][number];
const pageOf = (pages: PagesMeasurement, path: string) =>
  pages.pages.find((page) => page.path === path) as PageResult;
const failingAuditsOf = (page: PageResult) =>
  page.failingAudits.length === 0
    ? 'no audit that counts failed'
    : `failing audits: ${page.failingAudits.join(', ')}`;

const pageChecks = (path: string): BudgetCheck<PagesMeasurement>[] => {
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
      explain: (pages) =>
        `largest element: ${[...new Set(pageOf(pages, path).runs.map((run) => run.lcpElement))].join(' / ')}`,
    },
    {
      name: `Requests the first or largest paint of ${path} waits for`,
      kind: 'max',
      limit: 0,
      measure: (pages) => Math.max(...pageOf(pages, path).runs.map((run) => run.paintWaitsFor.length)),
      format: String,
      explain: (pages) =>
        [...new Set(pageOf(pages, path).runs.flatMap((run) => run.paintWaitsFor))].join(', '),
    },
  ];
};
export const PAGE_BUDGET_CHECKS = LIGHTHOUSE_BUDGETS.pages.flatMap(pageChecks);

/** Held by the bench alone (LIGHTHOUSE_BUDGETS.maxTbtMs says why). */
export const TBT_CHECKS = LIGHTHOUSE_BUDGETS.pages.map(
  (path): BudgetCheck<PagesMeasurement> => ({
    name: `Total Blocking Time of ${path}`,
    kind: 'max',
    limit: LIGHTHOUSE_BUDGETS.maxTbtMs,
    measure: (pages) => pageOf(pages, path).median.tbtMs,
    format: ms,
  }),
);
