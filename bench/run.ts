/**
 * `npm run bench [-- --only bundle,page,lambda]`: builds once, measures each
 * section in turn (never two at once: they would slow each other down), writes bench/results.json and prints
 * a Markdown table per section, then whether each budget is met. Then it writes docs/performance.md whole
 * from bench/results.json, and the README's headline figures between their markers (performance-page.ts).
 * `npm run bench -- --report-only` measures nothing: it writes those two again from the results there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { type BudgetResult, evaluateBudget } from './budgets';
import {
  BUNDLE_BUDGET_CHECKS,
  type BundleMeasurement,
  bundleSections,
  measureBundle,
  ROOT_DIR,
} from './bundle';
import { measureLambdaColdStart } from './lambda';
import { chromiumVersion, measurePages, PAGE_BUDGET_CHECKS, type PagesMeasurement } from './lighthouse';
import { pageSection } from './page';
import { type BenchResults, headlineFigures, writePerformancePage } from './performance-page';
import { type BenchSection, writeReadmeFigures } from './report';
import { markdownSection } from './table';

/** What ships, each measured in turn: the page's bytes, the page in Lighthouse, the Lambda's cold start. */
const ALL = ['bundle', 'page', 'lambda'];

function selectedSections(argv: string[]): string[] {
  const index = argv.indexOf('--only');
  const value = index === -1 ? argv.find((arg) => arg.startsWith('--only='))?.slice(7) : argv[index + 1];
  if (value === undefined) return ALL;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ALL.includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`unknown section ${unknown.join(', ')}: choose from ${ALL.join(', ')}`);
  return names;
}

const only = selectedSections(process.argv.slice(2));
const reportOnly = process.argv.includes('--report-only');

/** What results.json holds now, or nothing when it is missing or unreadable. */
function earlierResults(): Partial<BenchResults> {
  try {
    return JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch {
    return {};
  }
}

const resultsFile = join(ROOT_DIR, 'bench/results.json');
const performanceFile = join(ROOT_DIR, 'docs/performance.md');
const readmeFile = join(ROOT_DIR, 'README.md');

/** docs/performance.md and the README's headline figures, from what results.json holds. */
function writeReports(results: BenchResults): void {
  writePerformancePage(results, performanceFile);
  console.error(`Wrote ${performanceFile}.`);
  const headline = headlineFigures(results);
  if (headline === undefined) return;
  if (writeReadmeFigures(readmeFile, 'headline', headline))
    console.error(`Wrote the headline figures into ${readmeFile}.`);
  else console.error('README.md has no place for the headline figures: left as it is.');
}

if (reportOnly) {
  if (!existsSync(resultsFile)) throw new Error(`${resultsFile} is missing: run npm run bench first`);
  writeReports(JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults);
  process.exit();
}

const sections: BenchSection[] = [];
/** Each budget with the section that measured it, so a partial run replaces that section's budgets. */
const budgets: (BudgetResult & { section: string })[] = [];
const addBudgets = (section: string, results: BudgetResult[]) =>
  budgets.push(...results.map((result) => ({ ...result, section })));
const log = (line: string) => console.error(line);

if (only.includes('bundle') || only.includes('page')) {
  log('Building (npm run build) …');
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

let bundle: BundleMeasurement | undefined;
if (only.includes('bundle')) {
  log('Measuring the bundle …');
  bundle = await measureBundle();
  sections.push(...bundleSections(bundle));
  addBudgets(
    'bundle',
    BUNDLE_BUDGET_CHECKS.map((check) => evaluateBudget(check, bundle as BundleMeasurement)),
  );
}

let pages: PagesMeasurement | undefined;
if (only.includes('page')) {
  log('Running Lighthouse …');
  pages = await measurePages({ log });
  sections.push(pageSection(pages, bundle?.firstLoad.transferBytes));
  addBudgets(
    'page',
    PAGE_BUDGET_CHECKS.map((check) => evaluateBudget(check, pages as PagesMeasurement)),
  );
}

if (only.includes('lambda')) {
  log('Measuring the Lambda cold start …');
  const section = await measureLambdaColdStart();
  sections.push(section);
  addBudgets('lambda', section.budgets ?? []);
}

const partial = only.length < ALL.length;
const earlier = earlierResults();
const measuredAt = new Date().toISOString();
const results: BenchResults = {
  measuredAt,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    chromium: pages?.chromium ?? chromiumVersion(),
  },
  // A run of some sections (--only) keeps the figures of the others from the last run that measured them.
  sections: {
    ...(partial ? earlier.sections : {}),
    ...Object.fromEntries(sections.map((section) => [section.name, section.results])),
  },
  sectionsMeasuredAt: {
    ...(partial ? earlier.sectionsMeasuredAt : {}),
    ...Object.fromEntries(sections.map((section) => [section.name, measuredAt])),
  },
  // A budget with no section is from results older than sections: dropped, as a full run would.
  budgets: [
    ...(partial
      ? (earlier.budgets ?? []).filter((budget) => budget.section && !only.includes(budget.section))
      : []),
    ...budgets,
  ],
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
// In the project's own format, so that `npm run lint` passes with the file committed.
execFileSync(join(ROOT_DIR, 'node_modules/.bin/biome'), ['format', '--write', resultsFile], {
  stdio: 'ignore',
});

const { machine } = results;
console.log(
  `Measured ${results.measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ` +
    `Node ${machine.node}, Chromium ${machine.chromium}.\n`,
);
for (const section of sections) console.log(`${markdownSection(section)}\n`);
writeReports(results);

if (budgets.length > 0) {
  const missed = budgets.filter((budget) => !budget.met);
  const belowTarget = budgets.filter((budget) => budget.met && !budget.metTarget);
  const line = [`Budgets: ${budgets.length - missed.length} of ${budgets.length} met`];
  for (const budget of missed) line.push(`over: ${budget.name} ${budget.value} (${budget.budget})`);
  // A budget missed fails the run, as it fails `npm test`.
  if (missed.length > 0) process.exitCode = 1;
  for (const budget of belowTarget)
    line.push(`below target: ${budget.name} ${budget.value} (${budget.budget})`);
  console.log(`${line.join('; ')}.`);
}
console.error(`Wrote ${resultsFile}.`);
