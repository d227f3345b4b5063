/**
 * docs/performance.md, written whole from bench/results.json: every section's figures as the last run that
 * measured it left them, and the budgets. `npm run bench` writes it after measuring; `npm run bench --
 * --report-only` writes it again from the results already there, measuring nothing. Never edit the page
 * by hand: the next run overwrites it.
 */
import { writeFileSync } from 'node:fs';
import { type BudgetResult, LIGHTHOUSE_BUDGETS } from './budgets';
import { type BundleMeasurement, bundleSections, type InitialJsBreakdown } from './bundle';
import { type LambdaResults, lambdaSection } from './lambda';
import type { PagesMeasurement } from './lighthouse';
import { pageSection } from './page';
import type { BenchSection } from './report';
import { times } from './statistics';
import { kb, markdownTable, ms } from './table';

export interface BenchResults {
  /** When the latest run ended; a run of some sections (`--only`) keeps the others' figures. */
  measuredAt: string;
  /** When each section was last measured; missing for figures from before this was recorded. */
  sectionsMeasuredAt?: Record<string, string>;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; chromium: string };
  sections: Record<string, unknown>;
  /** With the section that measured each, so a partial run replaces that section's budgets. */
  budgets: (BudgetResult & { section: string })[];
}

/** One section of the page: what it measures, and its table rebuilt from the figures in results.json. */
interface PageSection {
  /** The section's key in results.json, and its `--only` name. */
  name: string;
  /** What the figures mean, in a sentence or two; no figures (those come from the results). */
  about: string;
  render: (results: Record<string, unknown>, all: BenchResults) => BenchSection | BenchSection[];
}

const SECTIONS: PageSection[] = [
  {
    name: 'page',
    about: `Lighthouse's mobile preset simulates a mid-range phone on a slow 4G link (150 ms round trips, 1.6 Mbit/s, CPU slowed 4×), on \`/\` and \`/en/\` served by the local runner as CloudFront serves them. The text is prerendered and the stylesheet inlined, the sections below the first screen are laid out only when they come near (\`content-visibility: auto\`), and nothing else is requested before the largest paint: the entry script and the manifest are asked for one frame after it, and the tab's icon is a \`data:\` URL in the page.`,
    render: (results, all) => pageSection(results as unknown as PagesMeasurement, bundleFirstLoad(all)),
  },
  {
    name: 'bundle',
    about:
      "\"Initial\" counts the entry, the app chunk it starts and the copy of the page's language; the other language, the dialogs, the plus menu's entries, the privacy notice and the result pages load when needed. The CSS is inlined in the HTML, so the first load has no stylesheet request. `npm run build` prints the same sizes for every build (bench/report-sizes.ts); this table is the last bench run's.",
    render: (results, all) =>
      bundleSections({
        ...(results as unknown as BundleMeasurement),
        breakdown: all.sections.bundleModules as InitialJsBreakdown,
      }),
  },
  {
    name: 'lambda',
    about:
      "The cold start of the built API function serving one signup, next to its floor, a bare SDK client sending one PutItem. The function's bundle carries the AWS SDK the tests ran (functions/build.ts) and the floor imports the same version unbundled, so the ratio is what the function's own code adds, less what one bundled file saves over many.",
    render: (results) => lambdaSection(results as unknown as LambdaResults),
  },
];

function bundleFirstLoad(all: BenchResults): number | undefined {
  const bundle = all.sections.bundle as { firstLoad?: { transferBytes: number } } | undefined;
  return bundle?.firstLoad?.transferBytes;
}

function markdownOf(section: BenchSection, level = '##'): string {
  const notes = (section.notes ?? []).map((note) => `\n${note}\n`).join('');
  return `${level} ${section.title}\n\n${markdownTable(section.table)}\n${notes}`;
}

/** The whole page, from the results alone. */
function performancePage(results: BenchResults): string {
  const { machine } = results;
  const when = (name: string) => {
    const at = results.sectionsMeasuredAt?.[name];
    return at ? `Measured ${at.slice(0, 10)}` : `Measured on or before ${results.measuredAt.slice(0, 10)}`;
  };
  const budgets = results.budgets.map((budget) => [
    budget.name,
    budget.value,
    budget.budget,
    budget.met ? (budget.metTarget ? 'met' : 'met, below target') : '**OVER**',
  ]);
  const missed = results.budgets.filter((budget) => !budget.met).length;
  const parts = [
    '# Performance',
    `Written by \`npm run bench\` from \`bench/results.json\`; do not edit it by hand, the next run overwrites it. \`npm run bench -- --report-only\` writes it again from the results already there, measuring nothing; \`npm run bench -- --only <section>\` measures one section and keeps the others' figures.`,
    `Latest run ${results.measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Chromium ${machine.chromium}.`,
    '## Budgets',
    `\`npm test\` holds the figures that are stable from run to run to the budgets in \`bench/budgets.ts\` (\`test/budgets/\`: the bundle sizes, and Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs on ${LIGHTHOUSE_BUDGETS.pages.map((path) => `\`${path}\``).join(' and ')}); the cold-start ratio is held to its budget by the bench alone. The end-to-end tests check that nothing shifts (CLS 0 at 390 px). In the latest results, ${results.budgets.length - missed} of ${results.budgets.length} budgets are met.`,
    markdownTable({ head: ['Budget', 'Measured', 'Limit', 'Verdict'], rows: budgets }),
  ];
  for (const { name, about, render } of SECTIONS) {
    const figures = results.sections[name] as Record<string, unknown> | undefined;
    if (!figures) {
      parts.push(`## ${name}\n\nNot measured yet: \`npm run bench -- --only ${name}\`.`);
      continue;
    }
    const rendered = [render(figures, results)].flat();
    const [first, ...rest] = rendered;
    if (!first) continue;
    parts.push(
      markdownOf(first).replace('\n\n', `\n\n${about}\n\n`),
      ...rest.map((section) => markdownOf(section, '###')),
      `${when(name)} by \`npm run bench -- --only ${name}\`.`,
    );
  }
  return `${parts.map((part) => part.trim()).join('\n\n')}\n`;
}

/**
 * Headline figures for the README, between its markers, from the same results: the page's largest
 * paint, the initial JavaScript, and the cold start against the SDK's own.
 */
export function headlineFigures(results: BenchResults): string | undefined {
  const page = results.sections.page as PagesMeasurement | undefined;
  const bundle = results.sections.bundle as { initialJs?: { gzipBytes: number } } | undefined;
  const lambda = results.sections.lambda as LambdaResults | undefined;
  const home = page?.pages.find((each) => each.path === '/');
  if (!home || !bundle?.initialJs || !lambda) return undefined;
  return [
    `- Largest paint of \`/\` on a simulated mid-range phone: ${ms(home.median.lcpMs)}, waiting for no request but the page.`,
    `- JavaScript before the page is interactive: ${kb(bundle.initialJs.gzipBytes)} gzip.`,
    `- Lambda cold start: ${times(lambda.ratio.importAndServe)} that of a bare AWS SDK client sending one PutItem.`,
  ].join('\n');
}

export function writePerformancePage(results: BenchResults, file: string): void {
  writeFileSync(file, performancePage(results));
}
