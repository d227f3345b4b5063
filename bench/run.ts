// `npm run bench [-- --only bundle,page,lambda | --report-only]`: measures each section in turn (two at once
// would slow each other down) into bench/results.json, then writes docs/performance.md and README.md's
// headline figures.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BudgetResult, evaluateBudget, LIGHTHOUSE_BUDGETS } from './budgets';
import {
  type BundleMeasurement,
  bundleSection,
  kb,
  markdownTable,
  measureBundle,
  ROOT_DIR,
  type Table,
} from './bundle';
import { type LambdaResults, lambdaSection, measureLambda } from './lambda';
import {
  chromiumVersion,
  measurePages,
  ms,
  PAGE_BUDGET_CHECKS,
  type PagesMeasurement,
  TBT_CHECKS,
} from './lighthouse';

type Section = { table: Table; budgets: BudgetResult[]; notes: string[] };

function pageSection(pages: PagesMeasurement): Section {
  return {
    table: {
      head: ['Page', 'Performance', 'Accessibility', 'Best practices', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS'],
      rows: pages.pages.map(({ path, median }) => [
        `\`${path}\``,
        ...Object.values(median.scores),
        ...[median.fcpMs, median.lcpMs, median.tbtMs].map(ms),
        median.cls.toFixed(3),
      ]),
    },
    budgets: [...PAGE_BUDGET_CHECKS, ...TBT_CHECKS].map((check) => evaluateBudget(check, pages)),
    notes: [
      `Lighthouse ${pages.lighthouseVersion}'s mobile preset (a mid-range phone on slow 4G, simulated), median of ${pages.runsPerPage} runs, Chromium ${pages.chromium}, the built page served by \`npm start\`. Performance ${LIGHTHOUSE_BUDGETS.minPerformanceScore} is the floor in CI, ${LIGHTHOUSE_BUDGETS.targetPerformanceScore} the target; TBT is held to its budget by the bench alone.`,
    ],
  };
}

const SECTIONS = {
  page: { title: 'Page', measure: () => measurePages({ log: console.error }), render: pageSection },
  bundle: {
    title: 'Bundle (dist/, what the first view of / downloads)',
    measure: measureBundle,
    render: bundleSection,
  },
  lambda: { title: 'Lambda: cold start', measure: measureLambda, render: lambdaSection },
} as const;
type Name = keyof typeof SECTIONS;
const ALL = Object.keys(SECTIONS) as Name[];

interface BenchResults {
  measuredAt: string;
  sectionsMeasuredAt: Partial<Record<Name, string>>;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; chromium: string };
  sections: Partial<Record<Name, unknown>>;
}

const render = (name: Name, figures: unknown) =>
  (SECTIONS[name].render as (figures: unknown) => Section)(figures);
const budgetsOf = (results: BenchResults) =>
  ALL.flatMap((name) => (results.sections[name] ? render(name, results.sections[name]).budgets : []));

function performancePage(results: BenchResults): string {
  const { machine } = results;
  const budgets = budgetsOf(results);
  const parts = [
    '# Performance',
    'Written by `npm run bench` from `bench/results.json`; the next run overwrites it. `-- --only <section>` measures one section and keeps the others; `-- --report-only` measures nothing and writes this page again.',
    `Latest run ${results.measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Chromium ${machine.chromium}.`,
    '## Budgets',
    `\`npm test\` holds the bundle sizes and Lighthouse's scores, LCP and paint-blocking requests to \`bench/budgets.ts\` (\`test/budgets/\`); the cold-start ratio and Total Blocking Time are held by the bench alone. ${budgets.filter((budget) => budget.met).length} of ${budgets.length} budgets are met.`,
    markdownTable({
      head: ['Budget', 'Measured', 'Limit', 'Verdict'],
      rows: budgets.map((budget) => [
        budget.name,
        budget.value,
        budget.budget,
        budget.met ? (budget.metTarget ? 'met' : 'met, below target') : '**OVER**',
      ]),
    }),
  ];
  for (const name of ALL) {
    const figures = results.sections[name];
    parts.push(`## ${SECTIONS[name].title}`);
    if (!figures) parts.push(`Not measured yet: \`npm run bench -- --only ${name}\`.`);
    else {
      const { table, notes } = render(name, figures);
      parts.push(
        markdownTable(table),
        ...notes,
        `Measured ${results.sectionsMeasuredAt[name]?.slice(0, 10)}.`,
      );
    }
  }
  return `${parts.join('\n\n')}\n`;
}

function writeReports(results: BenchResults): void {
  writeFileSync(join(ROOT_DIR, 'docs/performance.md'), performancePage(results));
  const home = (results.sections.page as PagesMeasurement | undefined)?.pages.find(
    (page) => page.path === '/',
  );
  const bundle = results.sections.bundle as BundleMeasurement | undefined;
  const lambda = results.sections.lambda as LambdaResults | undefined;
  if (!home || !bundle || !lambda) return;
  const headline = [
    `- Largest paint of \`/\` on a simulated mid-range phone: ${ms(home.median.lcpMs)}, waiting for no request but the page.`,
    `- JavaScript before the page is interactive: ${kb(bundle.initialJs.gzipBytes)} gzip, blocking the main thread for ${ms(home.median.tbtMs)}.`,
    `- Lambda cold start: ${lambda.ratio.toFixed(2)}× that of a bare AWS SDK client sending one PutItem.`,
  ].join('\n');
  const readmeFile = join(ROOT_DIR, 'README.md');
  const place =
    /(<!-- headline figures: written by npm run bench -->)[\s\S]*?(<!-- end of headline figures -->)/;
  const readme = readFileSync(readmeFile, 'utf8');
  writeFileSync(
    readmeFile,
    readme.replace(place, (_, start, end) => `${start}\n\n${headline}\n\n${end}`),
  );
}

const { values } = parseArgs({ options: { only: { type: 'string' }, 'report-only': { type: 'boolean' } } });
const only = (values.only?.split(',').map((name) => name.trim()) ?? ALL) as Name[];
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0)
  throw new Error(`unknown section ${unknown.join(', ')}: choose from ${ALL.join(', ')}`);
const resultsFile = join(ROOT_DIR, 'bench/results.json');
const earlier: BenchResults | undefined = existsSync(resultsFile)
  ? JSON.parse(readFileSync(resultsFile, 'utf8'))
  : undefined;

if (values['report-only']) {
  if (!earlier) throw new Error(`${resultsFile} is missing: run npm run bench first`);
  writeReports(earlier);
  process.exit();
}

if (only.includes('bundle') || only.includes('page')) {
  console.error('Building (npm run build) …');
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const measuredAt = new Date().toISOString();
const results: BenchResults = {
  measuredAt,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    chromium: chromiumVersion(),
  },
  // A run of some sections keeps the others' figures from the last run that measured them.
  sections: { ...earlier?.sections },
  sectionsMeasuredAt: { ...earlier?.sectionsMeasuredAt },
};
for (const name of only) {
  console.error(`Measuring ${name} …`);
  results.sections[name] = await SECTIONS[name].measure();
  results.sectionsMeasuredAt[name] = measuredAt;
  const { table, notes } = render(name, results.sections[name]);
  console.log(`### ${SECTIONS[name].title}\n\n${markdownTable(table)}\n\n${notes.join('\n\n')}\n`);
}
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
// In the project's own format, so that `npm run lint` passes with the file committed.
execFileSync(join(ROOT_DIR, 'node_modules/.bin/biome'), ['format', '--write', resultsFile], {
  stdio: 'ignore',
});
writeReports(results);

const budgets = budgetsOf(results);
const missed = budgets.filter((budget) => !budget.met);
console.log(
  [
    `Budgets: ${budgets.length - missed.length} of ${budgets.length} met`,
    ...missed.map((budget) => `over: ${budget.name} ${budget.value} (${budget.budget})`),
  ].join('; '),
);
// A budget missed fails the run, as it fails `npm test`.
if (missed.length > 0) process.exitCode = 1;
