// The Lambda's cold start: a fresh process importing the built handler and serving one signup, against the
// floor, a fresh process importing the AWS SDK's document client and sending one PutItem, interleaved on one
// in-memory dynalite so that the ratio compares like with like on this machine.
import { execFile, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { apiGatewayEvent } from '../local/api-gateway-event';
import { ensureWaitlistTable } from '../local/local-dynamodb';
import { localStoreEnvironment } from '../local/local-store-client';
import { evaluateBudget, LAMBDA_BUDGETS } from './budgets';
import { LAMBDA_BUNDLE, ROOT_DIR } from './bundle';
import { type BenchSection, kb, median, percentile, preciseMs, round, times } from './report';

/** As the stack runs every function (infra/constructs/built-function.ts); the floor too, like for like. */
const NODE_FLAGS = ['--enable-source-maps'];
/** On a busy 2-core machine thirty keep the ratio within about 0.05 of itself from run to run; fifteen, 0.2. */
const RUNS = 30;

type Kind = 'handler' | 'floor';

// `importAndServeMs` from the child's first line of code to its answer, `wallMs` from spawn to exit.
async function coldStart(kind: Kind, email: string, env: Record<string, string>) {
  const event = apiGatewayEvent({
    method: 'POST',
    path: WAITLIST_PATH,
    headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
    body: JSON.stringify({ email, language: 'nl' }),
    sourceIp: '203.0.113.7',
  });
  const args = kind === 'handler' ? [LAMBDA_BUNDLE, JSON.stringify(event)] : [email];
  const spawned = performance.now();
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [...NODE_FLAGS, join(ROOT_DIR, 'bench/lambda-cold-start.mjs'), kind, ...args],
    { cwd: ROOT_DIR, env: { ...process.env, ...env } },
  ).catch((error: { code?: number; stderr?: string }) => {
    throw new Error(`the ${kind} cold start failed (exit ${error.code}): ${error.stderr?.trim()}`);
  });
  const wallMs = performance.now() - spawned;
  const line = stdout.split('\n').find((text) => text.startsWith('COLD_START '));
  if (!line) throw new Error(`the ${kind} cold start failed (exit 0): ${stderr.trim()}`);
  const { status, startedMs, servedMs }: { status: number; startedMs: number; servedMs: number } = JSON.parse(
    line.slice('COLD_START '.length),
  );
  if (status !== 201) throw new Error(`the ${kind} cold start answered ${status}, not 201: ${stderr.trim()}`);
  return { importAndServeMs: servedMs - startedMs, wallMs };
}

export type LambdaResults = Awaited<ReturnType<typeof measureLambda>>;

export function lambdaSection(results: LambdaResults): BenchSection {
  const { handler, floor, ratio, sourceMap } = results;
  const timeRow = (what: string, key: 'importAndServe' | 'wall', stat: 'medianMs' | 'p90Ms') => [
    `${what}, ${stat === 'medianMs' ? 'median' : 'p90'}`,
    preciseMs(handler[key][stat]),
    preciseMs(floor[key][stat]),
    stat === 'medianMs' ? times(ratio[key]) : '',
  ];
  const ratioCheck = {
    name: 'Lambda cold-start ratio (import + first request, median)',
    kind: 'max',
    limit: LAMBDA_BUDGETS.maxColdStartRatio,
    measure: () => ratio.importAndServe,
    format: times,
  } as const;
  return {
    name: 'lambda',
    title: 'Lambda: cold start',
    results,
    budgets: [evaluateBudget(ratioCheck, undefined)],
    table: {
      head: ['Lambda', 'Handler', 'Floor: SDK + one PutItem', 'Ratio'],
      rows: [
        ['Source map, shipped beside the bundle', kb(sourceMap.rawBytes), 'none', ''],
        timeRow('Import + first request', 'importAndServe', 'medianMs'),
        timeRow('Import + first request', 'importAndServe', 'p90Ms'),
        timeRow('Process spawn to exit', 'wall', 'medianMs'),
        timeRow('Process spawn to exit', 'wall', 'p90Ms'),
      ],
    },
    notes: [
      `${results.runs} cold starts of each, alternating, after one unrecorded pair; each a fresh \`node\` process writing one new signup to the same in-memory dynalite. Both ran with ${results.nodeOptions.join(' ')}, as the stack runs every function.`,
      '"Import + first request" is measured inside the child with performance.now(): from its first line of code to the handler\'s answer (201). "Spawn to exit" is measured by the parent and adds Node\'s own start and exit.',
      `The ratio is what the handler adds to the SDK's own cost (budget ≤ ${times(LAMBDA_BUDGETS.maxColdStartRatio)}). Node ${results.nodeVersion} here; the Lambda runs Node.js 24 on arm64, so absolute times differ from AWS's.`,
    ],
  };
}

/** Rebuilds dist-functions/ first, so the figure is of the current source. */
export async function measureLambda() {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'functions/build.ts'], {
    cwd: ROOT_DIR,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`functions/build.ts failed: ${built.stderr}`);

  // On a loopback port, reached as a Lambda reaches DynamoDB: the bundle knows no Unix socket.
  const store = (createRequire(import.meta.url)('dynalite') as (options: object) => Server)({
    createTableMs: 0,
  });
  await new Promise<void>((listening) => store.listen(0, '127.0.0.1', listening));
  const endpoint = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  const measured: Record<Kind, Awaited<ReturnType<typeof coldStart>>[]> = { handler: [], floor: [] };
  try {
    await ensureWaitlistTable(endpoint);
    const environment = localStoreEnvironment(endpoint);
    const runId = Date.now().toString(36);
    // One pair unrecorded: later processes read their files from the page cache, as a warm Lambda host does.
    for (let pair = -1; pair < RUNS; pair++) {
      for (const kind of ['handler', 'floor'] as const) {
        const result = await coldStart(kind, `cold.${kind}.${runId}.${pair + 1}@example.nl`, environment);
        if (pair >= 0) measured[kind].push(result);
      }
    }
  } finally {
    store.close();
  }

  const figures = (kind: Kind) => {
    const summary = (key: 'importAndServeMs' | 'wallMs') => {
      const values = measured[kind].map((run) => run[key]);
      return { medianMs: round(median(values)), p90Ms: round(percentile(values, 90)) };
    };
    return { importAndServe: summary('importAndServeMs'), wall: summary('wallMs') };
  };
  const handler = figures('handler');
  const floor = figures('floor');
  return {
    // Node reads the map beside the bundle only with --enable-source-maps.
    sourceMap: { rawBytes: statSync(`${LAMBDA_BUNDLE}.map`).size },
    nodeOptions: NODE_FLAGS,
    runs: RUNS,
    nodeVersion: process.version,
    handler,
    floor,
    ratio: {
      importAndServe: round(handler.importAndServe.medianMs / floor.importAndServe.medianMs),
      wall: round(handler.wall.medianMs / floor.wall.medianMs),
    },
  };
}
