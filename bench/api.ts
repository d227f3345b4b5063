/**
 * The waitlist API on one machine: what the handler behind the local HTTP adapter costs per request,
 * compared with the store alone, and how many signups a second the runner serves at concurrency 1, 16
 * and 64. The runner runs in a child process; the raw PutItem calls go from this process to that
 * runner's own dynalite, so both sides of the ratio write to one store in one run.
 */

import { WAITLIST_PATH } from '#contract/waitlist-api';
import { joinWaitlist } from '../functions/waitlist/join-waitlist';
import { runLoad, statusCounts, wholeMs } from './load';
import type { BenchSection } from './report';
import { type RunnerProcess, startRunnerProcess } from './runner-process';
import { median, percentile, preciseMs, round, times } from './statistics';
import { createStoreClient } from './store';

export interface ApiBenchOptions {
  /** Sequential requests of each kind (runner and raw PutItem), after a short unrecorded warm-up. */
  sequentialRequests?: number;
  concurrencies?: number[];
  /** Each throughput run ends after this many seconds or `loadMaxRequests` requests, whichever is first. */
  loadSeconds?: number;
  loadMaxRequests?: number;
}

const WARM_UP_REQUESTS = 50;

interface Latency {
  p50Ms: number;
  p99Ms: number;
}

interface SequentialFigures {
  requests: number;
  runner: Latency;
  rawPutItem: Latency;
  overheadRatioP50: number;
}

interface ThroughputRun {
  connections: number;
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

export interface ApiResults {
  sequential: SequentialFigures;
  throughput: ThroughputRun[];
  nodeVersion: string;
}

async function postSignup(runner: RunnerProcess, email: string): Promise<void> {
  const response = await fetch(new URL(WAITLIST_PATH, runner.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, language: 'nl' }),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`the runner answered ${response.status} to a new signup`);
}

/** Request by request, runner and raw PutItem alternating, so drift on the machine hits both alike. */
async function measureSequential(
  runner: RunnerProcess,
  requests: number,
  runId: string,
): Promise<SequentialFigures> {
  const store = createStoreClient(runner.storeEndpoint);
  const runnerMs: number[] = [];
  const rawMs: number[] = [];
  try {
    for (let index = -WARM_UP_REQUESTS; index < requests; index++) {
      let started = performance.now();
      await postSignup(runner, `seq.runner.${runId}.${index}@example.nl`);
      const runnerElapsed = performance.now() - started;

      started = performance.now();
      const email = `seq.raw.${runId}.${index}@example.nl`;
      const outcome = await joinWaitlist(store, { email, key: email, language: 'nl' });
      const rawElapsed = performance.now() - started;
      if (outcome !== 'joined') throw new Error(`a raw PutItem of a new address said ${outcome}`);

      if (index >= 0) {
        runnerMs.push(runnerElapsed);
        rawMs.push(rawElapsed);
      }
    }
  } finally {
    store.destroy();
  }
  const summary = (values: number[]): Latency => ({
    p50Ms: round(median(values), 3),
    p99Ms: round(percentile(values, 99), 3),
  });
  const runnerSummary = summary(runnerMs);
  const rawSummary = summary(rawMs);
  return {
    requests,
    runner: runnerSummary,
    rawPutItem: rawSummary,
    overheadRatioP50: round(runnerSummary.p50Ms / rawSummary.p50Ms),
  };
}

async function measureThroughput(
  runner: RunnerProcess,
  connections: number,
  seconds: number,
  maxRequests: number,
  /** Unique to this run, so its addresses are new to the store. */
  runId: string,
): Promise<ThroughputRun> {
  let sent = 0;
  const result = await runLoad({
    url: runner.url,
    connections,
    seconds,
    maxRequests,
    setupRequest: (request) => ({
      ...request,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `load.${runId}.${sent++}@example.nl`, language: 'nl' }),
    }),
  });
  const statuses = statusCounts(result);
  const unexpected = Object.entries(statuses).filter(([status]) => status !== '201');
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || unexpected.length > 0) {
    throw new Error(
      `the runner failed under load at concurrency ${connections}: ${result.errors} connection errors, ` +
        `${result.timeouts} timeouts, statuses ${JSON.stringify(statuses)}`,
    );
  }
  return {
    connections,
    requests: result['2xx'],
    durationSeconds: round(result.duration),
    requestsPerSecond: round(result['2xx'] / result.duration, 0),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
  };
}

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function apiSection({ sequential, throughput }: ApiResults): BenchSection {
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

export async function measureApi({
  sequentialRequests = 500,
  concurrencies = [1, 16, 64],
  loadSeconds = 10,
  loadMaxRequests = 50_000,
}: ApiBenchOptions = {}): Promise<BenchSection> {
  const runId = Date.now().toString(36);
  const runner = await startRunnerProcess(':memory:');
  let sequential: SequentialFigures;
  const throughput: ThroughputRun[] = [];
  try {
    sequential = await measureSequential(runner, sequentialRequests, runId);
    for (const [index, connections] of concurrencies.entries()) {
      throughput.push(
        await measureThroughput(runner, connections, loadSeconds, loadMaxRequests, `${runId}.${index}`),
      );
    }
  } finally {
    await runner.stop();
  }

  const results: ApiResults = { sequential, throughput, nodeVersion: process.version };
  return { ...apiSection(results), results: { ...results } };
}

if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify(await measureApi(), null, 2));
}
