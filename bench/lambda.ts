/**
 * The Lambda's size and cold start. A cold start is a fresh Node process that imports the built handler
 * and serves one signup; the floor is a fresh process that imports the AWS SDK's DynamoDB document
 * client and sends one PutItem: what any function writing to DynamoDB pays. Both write to one in-memory
 * dynalite, interleaved, in the same run, so the ratio compares like with like on this machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { apiGatewayEvent } from '../local/api-gateway-event';
import { evaluateBudget, LAMBDA_BUDGETS } from './budgets';
import { LAMBDA_BUNDLE } from './bundle';
import type { BenchSection } from './report';
import { median, percentile, preciseMs, round, times } from './statistics';
import { startBenchStore, storeEnvironment } from './store';
import { kb } from './table';

const repoRoot = resolve(import.meta.dirname, '..');
const coldStartScript = join(repoRoot, 'bench/lambda-cold-start.mjs');

export interface LambdaColdStartOptions {
  /**
   * Cold starts of each kind; they alternate, handler then floor. On a busy 2-core machine thirty
   * keep the ratio within about 0.05 of itself from run to run; fifteen let it swing by 0.2.
   */
  runs?: number;
  /** Rebuild dist-functions/ first (`functions/build.ts`), so the figure is of the current source. */
  build?: boolean;
}

type Kind = 'handler' | 'floor';

interface ColdStart {
  /** From the child's first line of code to the answer to its one request: import + first request. */
  importAndServeMs: number;
  /** From the child's process start (performance.timeOrigin) to that answer: includes Node's own boot. */
  sinceProcessStartMs: number;
  /** Measured by this process: from spawn to the child's exit. */
  wallMs: number;
}

/** The API Gateway event of one signup, as the deployed function receives it. */
const signupEvent = (email: string) =>
  JSON.stringify(
    apiGatewayEvent({
      method: 'POST',
      path: WAITLIST_PATH,
      headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
      body: JSON.stringify({ email, language: 'nl' }),
      sourceIp: '203.0.113.7',
    }),
  );

/**
 * Node runs with --enable-source-maps, as the stack runs every function (infra/constructs/built-function.ts);
 * the floor runs under the same flag, like for like.
 */
const NODE_FLAGS = ['--enable-source-maps'];

function coldStart(kind: Kind, email: string, environment: Record<string, string>): Promise<ColdStart> {
  const args =
    kind === 'handler'
      ? [...NODE_FLAGS, coldStartScript, 'handler', LAMBDA_BUNDLE, signupEvent(email)]
      : [...NODE_FLAGS, coldStartScript, 'floor', email];
  const spawned = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolveRun, rejectRun) => {
    child.once('error', rejectRun);
    child.once('exit', (code) => {
      const wallMs = performance.now() - spawned;
      const line = stdout.split('\n').find((text) => text.startsWith('COLD_START '));
      if (code !== 0 || !line) {
        rejectRun(new Error(`the ${kind} cold start failed (exit ${code}): ${stderr.trim()}`));
        return;
      }
      const { status, startedMs, servedMs } = JSON.parse(line.slice('COLD_START '.length)) as {
        status: number;
        startedMs: number;
        servedMs: number;
      };
      if (status !== 201) {
        rejectRun(new Error(`the ${kind} cold start answered ${status}, not 201: ${stderr.trim()}`));
        return;
      }
      resolveRun({ importAndServeMs: servedMs - startedMs, sinceProcessStartMs: servedMs, wallMs });
    });
  });
}

interface Summary {
  medianMs: number;
  p90Ms: number;
}

const summary = (values: number[]): Summary => ({
  medianMs: round(median(values)),
  p90Ms: round(percentile(values, 90)),
});

interface ColdStartFigures {
  importAndServe: Summary;
  sinceProcessStart: Summary;
  wall: Summary;
}

export interface LambdaResults {
  bundle: { file: string; rawBytes: number; gzipBytes: number; awsSdkBundled: boolean };
  /** Missing from results measured before the functions shipped source maps. */
  sourceMap?: { file: string; rawBytes: number; shipped: boolean };
  nodeOptions?: string[];
  runs: number;
  nodeVersion: string;
  handler: ColdStartFigures;
  floor: ColdStartFigures;
  ratio: { importAndServe: number; wall: number };
}

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function lambdaSection(results: LambdaResults): BenchSection {
  const { handler, floor, ratio, sourceMap } = results;
  const sourceMaps = results.nodeOptions?.includes('--enable-source-maps') ?? false;
  return {
    name: 'lambda',
    title: 'Lambda: bundle and cold start',
    results: {},
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

export async function measureLambdaColdStart({
  runs = 30,
  build = true,
}: LambdaColdStartOptions = {}): Promise<BenchSection> {
  if (build) {
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'functions/build.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`functions/build.ts failed: ${built.stderr}`);
  }
  const bundle = readFileSync(LAMBDA_BUNDLE);
  const bundleBytes = { rawBytes: bundle.length, gzipBytes: gzipSync(bundle, { level: 9 }).length };
  // The map ships beside the bundle (functions/build.ts); Node reads it only with --enable-source-maps.
  const sourceMapBytes = statSync(`${LAMBDA_BUNDLE}.map`).size;

  const store = await startBenchStore(':memory:');
  const measured: Record<Kind, ColdStart[]> = { handler: [], floor: [] };
  try {
    const environment = storeEnvironment(store.endpoint);
    const runId = Date.now().toString(36);
    // One round unrecorded: the first process of each kind reads its files from disk, later ones from the
    // page cache, as a warm Lambda host would.
    for (let pair = -1; pair < runs; pair++) {
      for (const kind of ['handler', 'floor'] as const) {
        const result = await coldStart(kind, `cold.${kind}.${runId}.${pair + 1}@example.nl`, environment);
        if (pair >= 0) measured[kind].push(result);
      }
    }
  } finally {
    await store.close();
  }

  const figures = (kind: Kind) => ({
    importAndServe: summary(measured[kind].map((run) => run.importAndServeMs)),
    sinceProcessStart: summary(measured[kind].map((run) => run.sinceProcessStartMs)),
    wall: summary(measured[kind].map((run) => run.wallMs)),
  });
  const handler = figures('handler');
  const floor = figures('floor');
  const ratio = {
    importAndServe: round(handler.importAndServe.medianMs / floor.importAndServe.medianMs),
    wall: round(handler.wall.medianMs / floor.wall.medianMs),
  };

  const coldStartBudget = evaluateBudget(
    {
      name: 'Lambda cold-start ratio (import + first request, median)',
      kind: 'max',
      limit: LAMBDA_BUDGETS.maxColdStartRatio,
      measure: () => ratio.importAndServe,
      format: (value) => `${value.toFixed(2)}×`,
    },
    undefined,
  );

  const results: LambdaResults = {
    bundle: { file: 'dist-functions/api/index.mjs', ...bundleBytes, awsSdkBundled: true },
    sourceMap: { file: 'dist-functions/api/index.mjs.map', rawBytes: sourceMapBytes, shipped: true },
    nodeOptions: NODE_FLAGS,
    runs,
    nodeVersion: process.version,
    handler,
    floor,
    ratio,
  };
  return { ...lambdaSection(results), results: { ...results }, budgets: [coldStartBudget] };
}

if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify(await measureLambdaColdStart(), null, 2));
}
