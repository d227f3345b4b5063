// The Lambda's cold start: a fresh process importing the built handler and serving one signup, against the
// floor, a fresh process importing the AWS SDK's document client and sending one PutItem, interleaved on one
// in-memory dynalite so that the ratio compares like with like on this machine.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { apiGatewayEvent } from '../local/api-gateway-event';
import { ensureWaitlistTable } from '../local/local-dynamodb';
import { localStoreEnvironment } from '../local/local-store-client';
import { budget, MAX_COLD_START_RATIO } from './budgets';
import { LAMBDA_BUNDLE, ROOT_DIR } from './bundle';
import { median } from './lighthouse';

/** As the stack runs every function (infra/constructs/built-function.ts); the floor too, like for like. */
const NODE_FLAGS = ['--enable-source-maps'];
/** On a busy 2-core machine thirty keep the ratio within about 0.05 of itself from run to run. */
const RUNS = 30;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/** From the child's first line of code to its answer, measured inside it (bench/lambda-cold-start.mjs). */
async function coldStart(kind: 'handler' | 'floor', email: string, endpoint: string) {
  const event = apiGatewayEvent({
    method: 'POST',
    path: WAITLIST_PATH,
    headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
    body: JSON.stringify({ email, language: 'nl' }),
    sourceIp: '203.0.113.7',
  });
  const args = kind === 'handler' ? [LAMBDA_BUNDLE, JSON.stringify(event)] : [email];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...NODE_FLAGS, join(ROOT_DIR, 'bench/lambda-cold-start.mjs'), kind, ...args],
    { cwd: ROOT_DIR, env: { ...process.env, ...localStoreEnvironment(endpoint) } },
  );
  const { status, startedMs, servedMs } = JSON.parse(stdout.match(/^COLD_START (.*)$/m)?.[1] ?? '{}');
  if (status !== 201) throw new Error(`the ${kind} cold start answered ${status}, not 201`);
  return servedMs - startedMs;
}

export type LambdaResults = Awaited<ReturnType<typeof measureLambda>>;

/** Of dist-functions/ as built: the bench builds before it measures. */
export async function measureLambda() {
  // On a loopback port, reached as a Lambda reaches DynamoDB: the bundle knows no Unix socket.
  const store = (createRequire(import.meta.url)('dynalite') as (options: object) => Server)({
    createTableMs: 0,
  });
  await new Promise<void>((listening) => store.listen(0, '127.0.0.1', listening));
  const endpoint = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  const measured = { handler: [] as number[], floor: [] as number[] };
  try {
    await ensureWaitlistTable(endpoint);
    const runId = Date.now().toString(36);
    // One pair unrecorded: later processes read their files from the page cache, as a warm Lambda host does.
    for (let pair = -1; pair < RUNS; pair++)
      for (const kind of ['handler', 'floor'] as const) {
        const took = await coldStart(kind, `cold.${kind}.${runId}.${pair + 1}@example.nl`, endpoint);
        if (pair >= 0) measured[kind].push(took);
      }
  } finally {
    store.close();
  }
  const [handlerMs, floorMs] = [median(measured.handler), median(measured.floor)] as [number, number];
  return {
    runs: RUNS,
    nodeVersion: process.version,
    handlerMs,
    floorMs,
    ratio: Number((handlerMs / floorMs).toFixed(2)),
  };
}

export const lambdaSection = ({ runs, handlerMs, floorMs, ratio, nodeVersion }: LambdaResults) => ({
  table: {
    head: ['Import + first request, median of', 'Handler', 'Floor: SDK + one PutItem', 'Ratio'],
    rows: [[`${runs} cold starts`, `${handlerMs.toFixed(1)} ms`, `${floorMs.toFixed(1)} ms`, times(ratio)]],
  },
  budgets: [
    budget('Lambda cold-start ratio (import + first request, median)', ratio, times, {
      max: MAX_COLD_START_RATIO,
    }),
  ],
  notes: `${runs} cold starts of each, alternating, each a fresh \`node ${NODE_FLAGS.join(' ')}\` writing one new signup to the same in-memory dynalite, timed inside the child from its first line of code to the answer. Node ${nodeVersion} here; the Lambda runs Node.js 24 on arm64, so absolute times differ from AWS's.`,
});
