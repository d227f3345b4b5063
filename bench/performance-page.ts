/**
 * docs/performance.md, written whole from bench/results.json: every section's figures as the last run that
 * measured it left them, and the budgets. `npm run bench` writes it after measuring; `npm run bench --
 * --report-only` writes it again from the results already there, measuring nothing. Never edit the page
 * by hand: the next run overwrites it.
 */
import { writeFileSync } from 'node:fs';
import { type AbuseResults, abuseSection } from './abuse';
import { type BudgetResult, LAMBDA_BUDGETS, LIGHTHOUSE_BUDGETS } from './budgets';
import { type BundleMeasurement, bundleSections, type InitialJsBreakdown } from './bundle';
import type { PagesMeasurement } from './lighthouse';
import { wholeMs } from './load';
import { pageSection } from './page';
import type { BenchSection } from './report';
import { mb, preciseMs, times } from './statistics';
import { kb, markdownTable, ms } from './table';

export interface BenchResults {
  /** When the latest run ended; a run of some sections (`--only`) keeps the others' figures. */
  measuredAt: string;
  /** When each section was last measured; missing for figures from before this was recorded. */
  sectionsMeasuredAt?: Record<string, string>;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; chromium: string };
  sections: Record<string, unknown>;
  budgets: BudgetResult[];
}

/** One section of the page: what it measures, and its table rebuilt from the figures in results.json. */
interface PageSection {
  /** The section's key in results.json, and its `--only` name. */
  name: string;
  /** What the figures mean, in a sentence or two; no figures (those come from the results). */
  about: string;
  render: (results: Record<string, unknown>, all: BenchResults) => BenchSection | BenchSection[];
}

const number = (value: number) => value.toLocaleString('en-GB');
const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : '**NOT MET**');

interface ColdStartFigures {
  importAndServe: { medianMs: number; p90Ms: number };
  wall: { medianMs: number; p90Ms: number };
}

interface LambdaResults {
  bundle: { file: string; rawBytes: number; gzipBytes: number };
  sourceMap?: { file: string; rawBytes: number };
  nodeOptions?: string[];
  runs: number;
  nodeVersion: string;
  handler: ColdStartFigures;
  floor: ColdStartFigures;
  ratio: { importAndServe: number; wall: number };
}

function lambdaSection(results: LambdaResults): BenchSection {
  const { handler, floor, ratio, sourceMap } = results;
  const sourceMaps = results.nodeOptions?.includes('--enable-source-maps') ?? false;
  return {
    name: 'lambda',
    title: 'Lambda: bundle and cold start',
    results: { ...results },
    table: {
      head: ['Lambda', 'Handler', 'Floor: SDK + one PutItem', 'Ratio'],
      rows: [
        [
          'Bundle, minified (gzip)',
          `${kb(results.bundle.rawBytes)} (${kb(results.bundle.gzipBytes)})`,
          'the same SDK, from node_modules',
          '',
        ],
        [
          'Source map, shipped beside it',
          sourceMap ? kb(sourceMap.rawBytes) : 'not measured in this run',
          '',
          '',
        ],
        [
          'Import + first request, median',
          preciseMs(handler.importAndServe.medianMs),
          preciseMs(floor.importAndServe.medianMs),
          times(ratio.importAndServe),
        ],
        [
          'Import + first request, p90',
          preciseMs(handler.importAndServe.p90Ms),
          preciseMs(floor.importAndServe.p90Ms),
          '',
        ],
        [
          'Process spawn to exit, median',
          preciseMs(handler.wall.medianMs),
          preciseMs(floor.wall.medianMs),
          times(ratio.wall),
        ],
        ['Process spawn to exit, p90', preciseMs(handler.wall.p90Ms), preciseMs(floor.wall.p90Ms), ''],
      ],
    },
    notes: [
      `${results.runs} cold starts of each, alternating, after one unrecorded pair; each a fresh \`node\` process writing one new signup to the same in-memory dynalite. ${
        sourceMaps
          ? 'Both ran with --enable-source-maps, as the stack runs every function.'
          : '**These figures are from a run before the functions shipped source maps**: run `npm run bench -- --only lambda` to measure them with `--enable-source-maps`, as the stack runs every function.'
      }`,
      '"Import + first request" is measured inside the child with performance.now(): from its first line of code to the handler\'s answer (201). "Spawn to exit" is measured by the parent and adds Node\'s own start and exit.',
      `The ratio is what the handler adds to the SDK's own cost (budget ≤ ${times(LAMBDA_BUDGETS.maxColdStartRatio)}). Node ${results.nodeVersion} here; the Lambda runs Node.js 24 on arm64, so absolute times differ from AWS's.`,
    ],
  };
}

interface ApiResults {
  sequential: {
    requests: number;
    runner: { p50Ms: number; p99Ms: number };
    rawPutItem: { p50Ms: number; p99Ms: number };
    overheadRatioP50: number;
  };
  throughput: {
    connections: number;
    requests: number;
    durationSeconds: number;
    requestsPerSecond: number;
    latencyP50Ms: number;
    latencyP99Ms: number;
  }[];
}

function apiSection({ sequential, throughput }: ApiResults): BenchSection {
  return {
    name: 'api',
    title: 'Waitlist API: handler through the local runner vs. raw PutItem',
    results: {},
    table: {
      head: ['API', 'Requests', 'Req/s', 'p50', 'p99', 'Ratio'],
      rows: [
        [
          'Sequential, runner (HTTP + handler + store)',
          sequential.requests,
          '',
          preciseMs(sequential.runner.p50Ms),
          preciseMs(sequential.runner.p99Ms),
          times(sequential.overheadRatioP50),
        ],
        [
          'Sequential, raw PutItem to the same store',
          sequential.requests,
          '',
          preciseMs(sequential.rawPutItem.p50Ms),
          preciseMs(sequential.rawPutItem.p99Ms),
          '',
        ],
        ...throughput.map((run) => [
          `autocannon, concurrency ${run.connections}`,
          run.requests,
          run.requestsPerSecond,
          wholeMs(run.latencyP50Ms),
          wholeMs(run.latencyP99Ms),
          '',
        ]),
      ],
    },
    notes: [
      'Sequential: one request at a time, a new address each, runner and raw PutItem alternating after unrecorded warm-up requests. Ratio: p50 runner / p50 raw PutItem, the per-request cost of HTTP, the adapter and the handler on top of the store.',
      `Throughput: autocannon against the runner (in-memory dynalite), each run about ${Math.round(throughput[0]?.durationSeconds ?? 0)} s, a new address per request, every answer 201. autocannon records latency in whole milliseconds and shares this machine's cores with the runner.`,
    ],
  };
}

interface SoakResults {
  durationSeconds: number;
  connections: number;
  requests: number;
  statusCounts: Record<string, number>;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  serverErrors: number;
  connectionErrors: number;
  unexpectedAnswers: Record<string, number>;
  rssWarmUpBytes: number;
  rssEndBytes: number;
  rssPeakBytes: number;
  rssGrowth: number;
  acknowledged: number;
  stored: number;
  lost: number;
  storedUnacknowledged: number;
  storedUnexpected: number;
  criteria: Record<string, boolean>;
}

function soakSection(figures: SoakResults): BenchSection {
  const { criteria } = figures;
  const statuses = Object.entries(figures.statusCounts)
    .map(([status, count]) => `${status}: ${number(count)}`)
    .join(', ');
  const otherAnswers =
    Object.values(figures.unexpectedAnswers).reduce((sum, count) => sum + count, 0) +
    figures.connectionErrors;
  return {
    name: 'soak',
    title: `Soak: ${figures.durationSeconds} s of mixed signups at concurrency ${figures.connections}`,
    results: {},
    table: {
      head: ['Soak', 'Figure', 'Criterion'],
      rows: [
        ['Requests (by status)', `${number(figures.requests)} (${statuses})`, ''],
        ['Throughput', `${figures.requestsPerSecond} req/s`, ''],
        ['Latency p50 / p99', `${wholeMs(figures.latencyP50Ms)} / ${wholeMs(figures.latencyP99Ms)}`, ''],
        ['5xx answers', figures.serverErrors, `0: ${verdict(criteria.noServerErrors)}`],
        [
          'Acknowledged (201) / stored / lost',
          `${number(figures.acknowledged)} / ${number(figures.stored)} / ${figures.lost}`,
          `0 lost: ${verdict(criteria.noLostAcknowledgedWrites)}`,
        ],
        [
          'Stored records no new signup asked for',
          figures.storedUnexpected,
          `0: ${verdict(criteria.noUnexpectedRecords)}`,
        ],
        [
          'Runner RSS after warm-up / end (peak)',
          `${mb(figures.rssWarmUpBytes)} / ${mb(figures.rssEndBytes)} (${mb(figures.rssPeakBytes)})`,
          `end ÷ warm-up ${times(figures.rssGrowth)}: ${verdict(criteria.memoryFlat)}`,
        ],
        [
          'Other answers than the contract gives',
          otherAnswers,
          `0: ${verdict(criteria.everyAnswerAsContracted)}`,
        ],
      ],
    },
    notes: [
      'Mix of every ten requests: six new addresses (201), two duplicates of acknowledged ones, half of them retyped in other case with spaces (409), one invalid address (400), one text/plain body (415).',
      `${figures.storedUnacknowledged} stored signups were in flight when the run reached its time limit, so their 201 was never read; they count as stored, not acknowledged.`,
      'The runner runs in its own process on a data folder on disk; its resident memory is read from /proc halfway through and at the end. Afterwards it is stopped with SIGTERM, the folder reopened and every acknowledged address looked up.',
    ],
  };
}

interface AnnounceResults {
  pacedTargetPerSecond: number;
  pacedAchievedPerSecond: number;
  pacedErrorPercent: number;
  peakRss: { confirmed: number; peakRssMiB: number; mailsPerSecond: number }[];
  peakRssGrowth: number;
}

function announceSection(results: AnnounceResults): BenchSection {
  return {
    name: 'announce',
    title: 'Announcement: rate and memory (local outbox)',
    results: {},
    table: {
      head: ['Measure', 'Value'],
      rows: [
        ...results.peakRss.map(({ confirmed, mailsPerSecond }) => [
          `Mails/s, no rate limit (${number(confirmed)} confirmed)`,
          mailsPerSecond,
        ]),
        [
          `Mails/s achieved at --rate ${results.pacedTargetPerSecond}`,
          `${results.pacedAchievedPerSecond} (${results.pacedErrorPercent}% off)`,
        ],
        ...results.peakRss.map(({ confirmed, peakRssMiB }) => [
          `Peak RSS sending to ${number(confirmed)} confirmed`,
          `${peakRssMiB} MiB`,
        ]),
      ],
    },
    notes: [
      'Each mail is one .eml written and fsynced in the outbox, after two conditional updates of its record.',
      `Peak memory grows ${times(results.peakRssGrowth)} from the smallest list to the largest: the table is read a page at a time.`,
    ],
  };
}

interface SpikeResults {
  sesMaxSendRate: number;
  burst: {
    signups: number;
    connections: number;
    stored: number;
    storedPerSecond: number;
    mailed: number;
    deadLetters: number;
    mailLagP50Seconds: number;
    mailLagP99Seconds: number;
    mailLagMaxSeconds: number;
    achievedMailsPerSecond: number;
    achievedRatio: number;
    achievedRatioGoal: number;
    senderPaceShare: number;
    busiestSecondMails: number;
  };
  duringAnnouncement: {
    confirmedPeople: number;
    signups: number;
    signupSpacingMs: number;
    confirmationsSent: number;
    confirmationP50Seconds: number;
    confirmationMaxSeconds: number;
    confirmationGoalSeconds: number;
    announcementStillSendingAfterLastConfirmation: boolean;
    allMailsPerSecond: number;
    busiestSecondMails: number;
  };
  criteria: Record<string, boolean>;
}

/** The spike's criteria in words, by their key in results.json. */
const SPIKE_CRITERIA: Record<string, string> = {
  everySignupAnswered: 'Every signup answered',
  everyAnsweredSignupStored: 'Every answered signup stored',
  everyAnsweredSignupMailed: 'Every answered signup mailed, none dead-lettered',
  sendRateAtGoal: 'Send rate at its goal',
  neverAboveSesRate: 'Never above the SES rate',
  confirmationsWithinGoalDuringAnnouncement: 'Confirmations within their goal during an announcement',
  announcementSentWhole: 'The announcement sent whole',
};

function spikeSection(results: SpikeResults): BenchSection {
  const { burst, duringAnnouncement: during, sesMaxSendRate: rate } = results;
  return {
    name: 'spike',
    title: `Launch-day spike (SES at ${rate} mails/s)`,
    results: {},
    table: {
      head: ['Measure', 'Value'],
      rows: [
        [
          `Signups stored per second (${number(burst.signups)} at once, ${burst.connections} connections)`,
          `${burst.storedPerSecond} (${number(burst.stored)} stored)`,
        ],
        ['Their mails sent / dead-lettered', `${number(burst.mailed)} / ${burst.deadLetters}`],
        [
          'Mail lag, signup answered → .eml: p50 / p99 / max',
          `${burst.mailLagP50Seconds} / ${burst.mailLagP99Seconds} / ${burst.mailLagMaxSeconds} s`,
        ],
        [
          `Send rate achieved (goal ≥ ${burst.achievedRatioGoal} of ${rate}/s)`,
          `${burst.achievedMailsPerSecond} mails/s (${burst.achievedRatio}); most .eml in one second ${burst.busiestSecondMails}`,
        ],
        [
          `Confirmation during an announcement to ${number(during.confirmedPeople)}: p50 / max (goal ≤ ${during.confirmationGoalSeconds} s)`,
          `${during.confirmationP50Seconds} / ${during.confirmationMaxSeconds} s (${during.confirmationsSent} of ${during.signups})`,
        ],
        [
          'All mail while the announcement sent',
          `${during.allMailsPerSecond} mails/s; most .eml in one second ${during.busiestSecondMails}`,
        ],
        ...Object.entries(results.criteria).map(([key, met]) => [
          `Criterion: ${SPIKE_CRITERIA[key] ?? key}`,
          verdict(met),
        ]),
      ],
    },
    notes: [
      `Runner and operator's tool with SES_MAX_SEND_RATE=${rate}, each on a fresh data folder; the sender aims at ${burst.senderPaceShare} of it. A mail's lag runs from its signup's answer to its .eml's modification time; at ${rate}/s, ${number(burst.signups)} mails take at least ${burst.signups / rate} s, so the lag is SES's rate, not the runner.`,
      `During the announcement, ${during.signups} signups ${during.signupSpacingMs} ms apart once it was three seconds in; the announcement ${during.announcementStillSendingAfterLastConfirmation ? 'was still sending after the last of their confirmations' : 'had finished before the last of their confirmations'}.`,
    ],
  };
}

const SECTIONS: PageSection[] = [
  {
    name: 'page',
    about: `Lighthouse's mobile preset simulates a mid-range phone on a slow 4G link (150 ms round trips, 1.6 Mbit/s, CPU slowed 4×), on \`/\` and \`/en/\` served by the local runner as CloudFront serves them. The ratio to the floor is what the page's markup, styles and scripts add to a bare page. The text is prerendered and the stylesheet inlined, the sections below the first screen are laid out only when they come near (\`content-visibility: auto\`), and nothing else is requested before the largest paint: the entry script and the manifest are asked for one frame after it, and the tab's icon is a \`data:\` URL in the page.`,
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
      "The cold start of the built waitlist handler next to its floor, a bare SDK client sending one PutItem: the AWS SDK is left to the Lambda runtime rather than bundled, so the handler's own code is all it adds.",
    render: (results) => lambdaSection(results as unknown as LambdaResults),
  },
  {
    name: 'api',
    about:
      'What the handler behind the local adapter costs per request over a raw PutItem to the same dynalite, and what two shared cores serve. In production API Gateway, Lambda and DynamoDB scale it, and the stage throttle bounds it ([Capacity](deploying.md#capacity)).',
    render: (results) => apiSection(results as unknown as ApiResults),
  },
  {
    name: 'soak',
    about:
      "A minute of mixed new, duplicate and invalid signups: no 5xx, every acknowledged signup found in the store afterwards, and the runner's memory flat.",
    render: (results) => soakSection(results as unknown as SoakResults),
  },
  {
    name: 'abuse',
    about:
      "One client posting spellings of one Gmail mailbox as fast as answers come, with the limits `npm start` has; then ordinary visitors alone, then both. The attack gets its per-client allowance through and at most the mailbox's daily mails; the visitors keep their rate.",
    render: (results) => abuseSection(results as unknown as AbuseResults),
  },
  {
    name: 'announce',
    about:
      "An announcement through the local outbox: mails per second with no rate limit at two list sizes, the tool's peak memory (flat as the list grows: the table is read page by page), and the rate achieved with `--rate`.",
    render: (results) => announceSection(results as unknown as AnnounceResults),
  },
  {
    name: 'spike',
    about:
      'A launch-day burst of signups against a simulated SES rate: how fast they are stored, how long their mails wait, the send rate achieved, and how fast a confirmation leaves while an announcement is sending.',
    render: (results) => spikeSection(results as unknown as SpikeResults),
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
    `Latest run ${results.measuredAt} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, Chromium ${machine.chromium}. Each run is bounded in count and time and talks to localhost only.`,
    '## Budgets',
    `\`npm test\` holds the figures that are stable from run to run to the budgets in \`bench/budgets.ts\` (\`test/budgets/\`: the bundle sizes, and Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs on ${LIGHTHOUSE_BUDGETS.pages.map((path) => `\`${path}\``).join(' and ')}); the cold-start ratio and the abuse figures are held to theirs by the bench alone. The end-to-end tests check that nothing shifts (CLS 0 at 390 px). In the latest results, ${results.budgets.length - missed} of ${results.budgets.length} budgets are met.`,
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
 * paint against the bare page, the initial JavaScript, and the cold start against the SDK's own.
 */
/** The launch-day spike in one line, when it was measured (see docs/deploying.md, Capacity). */
function spikeHeadline(results: BenchResults): string[] {
  const spike = results.sections.spike as
    | {
        sesMaxSendRate: number;
        burst: { signups: number; storedPerSecond: number; achievedRatio: number };
        duringAnnouncement: { confirmationMaxSeconds: number };
      }
    | undefined;
  if (!spike) return [];
  const { burst, duringAnnouncement } = spike;
  return [
    `- A spike of ${burst.signups.toLocaleString('en')} signups: stored at ${burst.storedPerSecond} a second, mailed at ${burst.achievedRatio} of SES's rate (${spike.sesMaxSendRate}/s here), and a confirmation during an announcement within ${duringAnnouncement.confirmationMaxSeconds} s.`,
  ];
}

export function headlineFigures(results: BenchResults): string | undefined {
  const page = results.sections.page as PagesMeasurement | undefined;
  const bundle = results.sections.bundle as { initialJs?: { gzipBytes: number } } | undefined;
  const lambda = results.sections.lambda as LambdaResults | undefined;
  const home = page?.pages.find((each) => each.path === '/');
  if (!home || !bundle?.initialJs || !lambda) return undefined;
  return [
    `- Largest paint of \`/\` on a simulated mid-range phone: ${ms(home.median.lcpMs)}, ${times(home.toFloor.lcp)} that of a bare page.`,
    `- JavaScript before the page is interactive: ${kb(bundle.initialJs.gzipBytes)} gzip.`,
    `- Lambda cold start: ${times(lambda.ratio.importAndServe)} that of a bare AWS SDK client sending one PutItem.`,
    ...spikeHeadline(results),
  ].join('\n');
}

export function writePerformancePage(results: BenchResults, file: string): void {
  writeFileSync(file, performancePage(results));
}
