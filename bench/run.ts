// `npm run bench [-- --only bundle,page,lambda | --report-only]`: measures each section in turn (two at once
// would slow each other down) into bench/results.json, then writes docs/performance.md and README.md's
// headline figures.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Budget } from './budgets';
import * as bundle from './bundle';
import { type LambdaResults, lambdaSection, measureLambda } from './lambda';
import { chromiumVersion, measurePages, ms, type PagesMeasurement, pageSection } from './lighthouse';

type Section = { table: bundle.Table; budgets: Budget[]; notes: string };

const SECTIONS = {
  page: { title: 'Page', measure: () => measurePages({ log: console.error }), render: pageSection },
  bundle: {
    title: 'Bundle (dist/, what the first view of / downloads)',
    measure: bundle.measureBundle,
    render: bundle.bundleSection,
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

function writeReports(results: BenchResults): void {
  const { machine, sections } = results;
  const budgets = budgetsOf(results);
  const page = [
    '# Performance',
    'Written by `npm run bench` from `bench/results.json`; the next run overwrites it. `-- --only <section>` measures one section and keeps the others; `-- --report-only` measures nothing and writes this page again.',
    `Latest run ${results.measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Chromium ${machine.chromium}.`,
    '## Budgets',
    `\`npm test\` holds the bundle sizes and Lighthouse's scores, LCP and paint-blocking requests to \`bench/budgets.ts\` (\`test/budgets/\`); the cold-start ratio and Total Blocking Time are held by the bench alone. ${budgets.filter((budget) => budget.met).length} of ${budgets.length} budgets are met.`,
    bundle.markdownTable({
      head: ['Budget', 'Measured', 'Limit', 'Verdict'],
      rows: budgets.map(({ name, value, budget, met, metTarget }) => [
        name,
        value,
        budget,
        met ? (metTarget ? 'met' : 'met, below target') : '**OVER**',
      ]),
    }),
    ...ALL.flatMap((name) => {
      const figures = sections[name];
      if (!figures)
        return [`## ${SECTIONS[name].title}`, `Not measured yet: \`npm run bench -- --only ${name}\`.`];
      const { table, notes } = render(name, figures);
      const measured = `Measured ${results.sectionsMeasuredAt[name]?.slice(0, 10)}.`;
      return [`## ${SECTIONS[name].title}`, bundle.markdownTable(table), notes, measured];
    }),
  ];
  writeFileSync(join(bundle.ROOT_DIR, 'docs/performance.md'), `${page.join('\n\n')}\n`);

  const home = (sections.page as PagesMeasurement | undefined)?.pages.find(({ path }) => path === '/');
  const sizes = sections.bundle as bundle.BundleMeasurement | undefined;
  const lambda = sections.lambda as LambdaResults | undefined;
  if (!home || !sizes || !lambda) return;
  const headline = [
    `- Largest paint of \`/\` on a simulated mid-range phone: ${ms(home.median.lcpMs)}, waiting for no request but the page.`,
    `- JavaScript before the page is interactive: ${bundle.kb(sizes.initialJs.gzipBytes)} gzip, blocking the main thread for ${ms(home.median.tbtMs)}.`,
    `- Lambda cold start: ${lambda.ratio.toFixed(2)}× that of a bare AWS SDK client sending one PutItem.`,
  ].join('\n');
  const readme = join(bundle.ROOT_DIR, 'README.md');
  const place =
    /(<!-- headline figures: written by npm run bench -->)[\s\S]*?(<!-- end of headline figures -->)/;
  writeFileSync(
    readme,
    readFileSync(readme, 'utf8').replace(place, (_, start, end) => `${start}\n\n${headline}\n\n${end}`),
  );
}

const { values } = parseArgs({ options: { only: { type: 'string' }, 'report-only': { type: 'boolean' } } });
const only = (values.only?.split(',').map((name) => name.trim()) ?? ALL) as Name[];
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0)
  throw new Error(`unknown section ${unknown.join(', ')}: choose from ${ALL.join(', ')}`);
const resultsFile = join(bundle.ROOT_DIR, 'bench/results.json');
const earlier: BenchResults | undefined = existsSync(resultsFile)
  ? JSON.parse(readFileSync(resultsFile, 'utf8'))
  : undefined;

if (values['report-only']) {
  if (!earlier) throw new Error(`${resultsFile} is missing: run npm run bench first`);
  writeReports(earlier);
  process.exit();
}

// Every section measures what the current source builds to.
console.error('Building (npm run build) …');
execFileSync('npm', ['run', '--silent', 'build'], {
  cwd: bundle.ROOT_DIR,
  stdio: ['ignore', 'ignore', 'inherit'],
});
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
  console.log(`### ${SECTIONS[name].title}\n\n${bundle.markdownTable(table)}\n\n${notes}\n`);
}
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
// In the project's own format, so that `npm run lint` passes with the file committed.
execFileSync(join(bundle.ROOT_DIR, 'node_modules/.bin/biome'), ['format', '--write', resultsFile], {
  stdio: 'ignore',
});
writeReports(results);

// A budget missed fails the run, as it fails `npm test`.
const missed = budgetsOf(results).filter((budget) => !budget.met);
console.log(
  [
    `Budgets: ${budgetsOf(results).length - missed.length} of ${budgetsOf(results).length} met`,
    ...missed.map((budget) => `over: ${budget.name} ${budget.value} (${budget.budget})`),
  ].join('; '),
);
if (missed.length > 0) process.exitCode = 1;
