/** Lighthouse's mobile preset on the built page as `npm start` serves it, a fresh Chromium each run. */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../frontend/scripts/chromium';
import { budget, LIGHTHOUSE_BUDGETS } from './budgets';
import { assertBuilt, ROOT_DIR } from './bundle';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TIMINGS = {
  fcpMs: 'first-contentful-paint',
  lcpMs: 'largest-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
} as const;
type Figure = (typeof CATEGORIES)[number] | keyof typeof TIMINGS;
export type PagesMeasurement = Awaited<ReturnType<typeof measurePages>>;

export const ms = (milliseconds: number) => `${Math.round(milliseconds).toLocaleString('en-GB')} ms`;
export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1] ?? Number.NaN;

export function chromiumVersion(): string {
  const { stdout } = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return stdout?.match(/[\d.]+/)?.[0] ?? 'not found';
}

async function runLighthouse(url: string): Promise<Result> {
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
    const error = result ? result.lhr.runtimeError?.message : 'nothing within 120 s';
    if (!result || error) throw new Error(`Lighthouse on ${url}: ${error}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

/** Scores out of 100, timings (NaN when not reported), and what the first or largest paint waited for. */
function summarize(lhr: Result) {
  const items = <Item>(id: string) =>
    (lhr.audits[id]?.details as { items?: Item[] } | undefined)?.items ?? [];
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
    figures: Object.fromEntries([
      ...CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
      ...Object.entries(TIMINGS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? Number.NaN]),
    ]) as Record<Figure, number>,
    paintWaitsFor: [
      ...items<{ url?: string }>('render-blocking-insight').map(({ url = '' }) => url),
      ...(lcpWaitsForResource ? ['the resource of the largest element'] : []),
    ],
    failingAudits,
  };
}

/** `npm start`'s server on dist/, in memory, on a free port. */
async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/server.ts'], {
    cwd: ROOT_DIR,
    env: { ...process.env, PORT: '0', DATA_DIR: ':memory:', SIGNUP_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let url = '';
  for await (const line of createInterface({ input: child.stdout })) {
    url = line.match(/^Mandje is running at (\S+)/)?.[1] ?? '';
    if (url) break;
  }
  if (!url) throw new Error('the server exited before it listened');
  // Read on, so its mail lines never fill the pipe.
  child.stdout.resume();
  return { url, stop: () => child.kill('SIGTERM') && once(child, 'exit') };
}

/** Each page in turn (`/`, `/en/`, `/`, …), so that whatever slows the machine for a while slows each alike. */
export async function measurePages({ log = (_line: string) => {} } = {}) {
  const { pages: paths, runsPerPage } = LIGHTHOUSE_BUDGETS;
  assertBuilt();
  const server = await startServer();
  const runs = new Map(paths.map((path) => [path, [] as ReturnType<typeof summarize>[]]));
  let lighthouseVersion = '';
  try {
    for (let index = 1; index <= runsPerPage; index += 1)
      for (const [path, list] of runs) {
        const url = new URL(path, server.url).href;
        // A trace Lighthouse failed to record (NO_NAVSTART, NO_FCP) on a busy machine is measured once more.
        const lhr = await runLighthouse(url).catch((error: Error) => {
          log(`  ${error.message}; measuring once more`);
          return runLighthouse(url);
        });
        lighthouseVersion = lhr.lighthouseVersion;
        const { figures, failingAudits } = list[list.push(summarize(lhr)) - 1] as ReturnType<
          typeof summarize
        >;
        log(
          `  ${path} run ${index}/${runsPerPage}: performance ${figures.performance}, LCP ${ms(figures.lcpMs)}, TBT ${ms(figures.tbtMs)}, failing: ${failingAudits.join(', ') || 'none'}`,
        );
      }
  } finally {
    await server.stop();
  }
  return {
    lighthouseVersion,
    runsPerPage,
    pages: [...runs].map(([path, list]) => ({
      path,
      median: Object.fromEntries(
        [...CATEGORIES, ...Object.keys(TIMINGS)].map((key) => [
          key,
          median(list.map(({ figures }) => figures[key as Figure])),
        ]),
      ) as Record<Figure, number>,
      failingAudits: [...new Set(list.flatMap((run) => run.failingAudits))],
      paintWaitsFor: [...new Set(list.flatMap((run) => run.paintWaitsFor))],
    })),
  };
}

/** The Total Blocking Time budgets, last, are held by the bench alone (LIGHTHOUSE_BUDGETS.maxTbtMs says why). */
export function pageBudgets({ pages }: PagesMeasurement) {
  const { minScores, minPerformanceScore, targetPerformanceScore, maxLcpMs, maxTbtMs } = LIGHTHOUSE_BUDGETS;
  const perPage = pages.flatMap(({ path, median, failingAudits, paintWaitsFor }) => {
    const failing = `failing audits: ${failingAudits.join(', ') || 'none that counts'}`;
    const score = (
      category: keyof typeof minScores | 'performance',
      limit: { min: number; target?: number },
    ) => budget(`Lighthouse ${category} score of ${path}`, median[category], String, limit, failing);
    return [
      ...Object.entries(minScores).map(([category, min]) =>
        score(category as keyof typeof minScores, { min }),
      ),
      score('performance', { min: minPerformanceScore, target: targetPerformanceScore }),
      budget(`Largest Contentful Paint of ${path}`, median.lcpMs, ms, { max: maxLcpMs }),
      budget(
        `Requests the first or largest paint of ${path} waits for`,
        paintWaitsFor.length,
        String,
        { max: 0 },
        paintWaitsFor.join(', '),
      ),
    ];
  });
  const tbt = pages.map(({ path, median }) =>
    budget(`Total Blocking Time of ${path}`, median.tbtMs, ms, { max: maxTbtMs }),
  );
  return [...perPage, ...tbt];
}

export const pageSection = (pages: PagesMeasurement) => ({
  table: {
    head: ['Page', 'Performance', 'Accessibility', 'Best practices', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS'],
    rows: pages.pages.map(({ path, median }) => [
      `\`${path}\``,
      ...CATEGORIES.map((category) => median[category]),
      ...[median.fcpMs, median.lcpMs, median.tbtMs].map(ms),
      median.cls.toFixed(3),
    ]),
  },
  budgets: pageBudgets(pages),
  notes: `Lighthouse ${pages.lighthouseVersion}'s mobile preset (a mid-range phone on slow 4G, simulated), median of ${pages.runsPerPage} runs, the built page served by \`npm start\`. Performance ${LIGHTHOUSE_BUDGETS.minPerformanceScore} is the floor in CI, ${LIGHTHOUSE_BUDGETS.targetPerformanceScore} the target; TBT is held to its budget by the bench alone.`,
});
