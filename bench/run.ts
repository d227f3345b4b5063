// `npm run bench [-- --only bundle,page,lambda | --report-only]`: measures each section in turn (two at once
// would slow each other down) into bench/results.json, then writes docs/performance.md and README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BundleMeasurement, bundleSection, measureBundle, ROOT_DIR } from './bundle';
import { lambdaSection, measureLambda } from './lambda';
import { chromiumVersion, measurePages, type PagesMeasurement, pageSection } from './lighthouse';
import { type BenchResults, writeReports } from './performance-page';
import { type BenchSection, markdownSection } from './report';

const ALL = ['bundle', 'page', 'lambda'];
const { values } = parseArgs({
  options: { only: { type: 'string' }, 'report-only': { type: 'boolean' } },
  strict: false,
});
const only = typeof values.only === 'string' ? values.only.split(',').map((name) => name.trim()) : ALL;
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0)
  throw new Error(`unknown section ${unknown.join(', ')}: choose from ${ALL.join(', ')}`);

const resultsFile = join(ROOT_DIR, 'bench/results.json');
const reportFiles = [join(ROOT_DIR, 'docs/performance.md'), join(ROOT_DIR, 'README.md')] as const;

if (values['report-only']) {
  if (!existsSync(resultsFile)) throw new Error(`${resultsFile} is missing: run npm run bench first`);
  writeReports(JSON.parse(readFileSync(resultsFile, 'utf8')), ...reportFiles);
  process.exit();
}

const sections: BenchSection[] = [];

if (only.includes('bundle') || only.includes('page')) {
  console.error('Building (npm run build) …');
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
let bundle: BundleMeasurement | undefined;
if (only.includes('bundle')) {
  console.error('Measuring the bundle …');
  bundle = await measureBundle();
  sections.push(bundleSection(bundle));
}
let pages: PagesMeasurement | undefined;
if (only.includes('page')) {
  console.error('Running Lighthouse …');
  pages = await measurePages({ log: console.error, bareTwins: true });
  sections.push(pageSection(pages, bundle?.firstLoad.transferBytes));
}
if (only.includes('lambda')) {
  console.error('Measuring the Lambda cold start …');
  sections.push(lambdaSection(await measureLambda()));
}
const budgets = sections.flatMap((section) =>
  (section.budgets ?? []).map((budget) => ({ ...budget, section: section.name })),
);

// A run of some sections (--only) keeps the others' figures and budgets from the last run that measured them.
const earlier: Partial<BenchResults> =
  only.length < ALL.length && existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {};
const measuredAt = new Date().toISOString();
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 1024 ** 3),
  node: process.version,
  chromium: pages?.chromium ?? chromiumVersion(),
};
const results: BenchResults = {
  measuredAt,
  machine,
  sections: {
    ...earlier.sections,
    ...Object.fromEntries(sections.map((section) => [section.name, section.results])),
  },
  sectionsMeasuredAt: {
    ...earlier.sectionsMeasuredAt,
    ...Object.fromEntries(sections.map((section) => [section.name, measuredAt])),
  },
  budgets: [...(earlier.budgets ?? []).filter((budget) => !only.includes(budget.section)), ...budgets],
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
// In the project's own format, so that `npm run lint` passes with the file committed.
execFileSync(join(ROOT_DIR, 'node_modules/.bin/biome'), ['format', '--write', resultsFile], {
  stdio: 'ignore',
});

console.log(
  `Measured ${measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ` +
    `Node ${machine.node}, Chromium ${machine.chromium}.\n`,
);
for (const section of sections) console.log(`${markdownSection(section)}\n`);
writeReports(results, ...reportFiles);

if (budgets.length > 0) {
  const missed = budgets.filter((budget) => !budget.met);
  const line = [`Budgets: ${budgets.length - missed.length} of ${budgets.length} met`];
  for (const budget of missed) line.push(`over: ${budget.name} ${budget.value} (${budget.budget})`);
  for (const budget of budgets.filter((each) => each.met && !each.metTarget))
    line.push(`below target: ${budget.name} ${budget.value} (${budget.budget})`);
  console.log(`${line.join('; ')}.`);
  // A budget missed fails the run, as it fails `npm test`.
  if (missed.length > 0) process.exitCode = 1;
}
console.error(`Wrote ${resultsFile}.`);
