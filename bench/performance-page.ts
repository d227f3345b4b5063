/** docs/performance.md and the README's headline figures, written whole from bench/results.json. */
import { readFileSync, writeFileSync } from 'node:fs';
import { type BudgetResult, LIGHTHOUSE_BUDGETS } from './budgets';
import { type BundleMeasurement, bundleSection } from './bundle';
import { type LambdaResults, lambdaSection } from './lambda';
import { type PagesMeasurement, pageSection } from './lighthouse';
import { kb, markdownSection, markdownTable, ms, times } from './report';

export interface BenchResults {
  measuredAt: string;
  sectionsMeasuredAt: Record<string, string>;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; chromium: string };
  sections: Record<string, unknown>;
  budgets: (BudgetResult & { section: string })[];
}

const SECTIONS = [
  {
    name: 'page',
    about: `Lighthouse's mobile preset simulates a mid-range phone on a slow 4G link (150 ms round trips, 1.6 Mbit/s, CPU slowed 4×), on \`/\` and \`/en/\` served by the local runner as CloudFront serves them. The text is prerendered and the stylesheet inlined, and nothing else is requested before the largest paint: the entry script and the manifest are asked for one frame after it, and the tab's icon is a \`data:\` URL in the page.`,
    render: (results: PagesMeasurement, all: BenchResults) =>
      pageSection(results, (all.sections.bundle as BundleMeasurement | undefined)?.firstLoad?.transferBytes),
  },
  {
    name: 'bundle',
    about:
      "\"Initial\" counts the entry, the app chunk it starts and the copy of the page's language; the other language, the dialogs, the plus menu's entries, the privacy notice and the result pages load when needed. The CSS is inlined in the HTML, so the first load has no stylesheet request. `npm run build` prints the same sizes for every build (bench/report-sizes.ts); this table is the last bench run's.",
    render: bundleSection,
  },
  {
    name: 'lambda',
    about:
      "The cold start of the built API function serving one signup, next to its floor, a bare SDK client sending one PutItem. The function's bundle carries the AWS SDK the tests ran (functions/build.ts) and the floor imports the same version unbundled, so the ratio is what the function's own code adds, less what one bundled file saves over many.",
    render: lambdaSection,
  },
];

function performancePage(results: BenchResults): string {
  const { machine } = results;
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
    `\`npm test\` holds the figures that are stable from run to run to the budgets in \`bench/budgets.ts\` (\`test/budgets/\`: the bundle sizes, and Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs on ${LIGHTHOUSE_BUDGETS.pages.map((path) => `\`${path}\``).join(' and ')}); the cold-start ratio and Total Blocking Time are held to their budgets by the bench alone. The end-to-end tests check that nothing shifts (CLS 0 at 390 px). In the latest results, ${results.budgets.length - missed} of ${results.budgets.length} budgets are met.`,
    markdownTable({ head: ['Budget', 'Measured', 'Limit', 'Verdict'], rows: budgets }),
  ];
  for (const { name, about, render } of SECTIONS) {
    const figures = results.sections[name];
    if (!figures) {
      parts.push(`## ${name}\n\nNot measured yet: \`npm run bench -- --only ${name}\`.`);
      continue;
    }
    parts.push(
      markdownSection(render(figures as never, results), '##').replace('\n\n', `\n\n${about}\n\n`),
      `Measured ${results.sectionsMeasuredAt[name]?.slice(0, 10)} by \`npm run bench -- --only ${name}\`.`,
    );
  }
  return `${parts.map((part) => part.trim()).join('\n\n')}\n`;
}

export function writeReports(results: BenchResults, performanceFile: string, readmeFile: string): void {
  writeFileSync(performanceFile, performancePage(results));
  console.error(`Wrote ${performanceFile}.`);
  const page = results.sections.page as PagesMeasurement | undefined;
  const bundle = results.sections.bundle as BundleMeasurement | undefined;
  const lambda = results.sections.lambda as LambdaResults | undefined;
  const [home, bare] = [false, true].map((withoutScript) =>
    page?.pages.find((each) => each.path === '/' && each.bare === withoutScript),
  );
  if (!home || !bare || !bundle || !lambda) return;
  const headline = [
    `- Largest paint of \`/\` on a simulated mid-range phone: ${ms(home.median.lcpMs)}, waiting for no request but the page.`,
    `- JavaScript before the page is interactive: ${kb(bundle.initialJs.gzipBytes)} gzip, blocking the main thread for ${ms(home.median.tbtMs)} (the same page without script: ${ms(bare.median.tbtMs)}).`,
    `- Lambda cold start: ${times(lambda.ratio.importAndServe)} that of a bare AWS SDK client sending one PutItem.`,
  ].join('\n');
  const readme = readFileSync(readmeFile, 'utf8');
  const place =
    /(<!-- headline figures: written by npm run bench -->)[\s\S]*?(<!-- end of headline figures -->)/;
  if (!place.test(readme)) {
    console.error('README.md has no place for the headline figures: left as it is.');
    return;
  }
  writeFileSync(
    readmeFile,
    readme.replace(place, (_, start, end) => `${start}\n\n${headline}\n\n${end}`),
  );
  console.error(`Wrote the headline figures into ${readmeFile}.`);
}
