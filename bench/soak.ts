/**
 * A bounded soak: the runner on a data folder on disk, in a child process, under mixed traffic from
 * autocannon: new signups, duplicates of addresses already acknowledged (in other case and spacing too),
 * invalid addresses and the wrong content type. Afterwards the runner is stopped, the folder reopened,
 * and every address that got a 201 is looked up: an acknowledged signup that is not stored is lost.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emailKey } from '#contract/email-address';
import { runLoad, statusCounts, wholeMs } from './load';
import type { BenchSection } from './report';
import { startRunnerProcess } from './runner-process';
import { mb, round, times } from './statistics';
import { startBenchStore, storedAddresses } from './store';
import { count, verdict } from './table';

export interface SoakOptions {
  durationSeconds?: number;
  connections?: number;
}

/** What each kind of request is, and what the API must answer to it. */
const EXPECTED_STATUS = { new: 201, duplicate: 409, invalidEmail: 400, wrongContentType: 415 } as const;
type RequestKind = keyof typeof EXPECTED_STATUS;

/** Out of every ten requests: six new signups, two duplicates, one invalid address, one wrong content type. */
const MIX: readonly RequestKind[] = [
  'new',
  'new',
  'duplicate',
  'new',
  'invalidEmail',
  'new',
  'duplicate',
  'new',
  'wrongContentType',
  'new',
];

/**
 * The share of the run after which the runner counts as warmed up, when its memory is first sampled. With
 * the mailer writing behind the signups, its resident memory keeps rising for most of a minute before it
 * levels off (a 3-minute run: 200 MB at 10 s, 234 at 60 s, 246 at 180 s), store and allocator taking in
 * the load; a leak goes on rising. So the second half of the run is what is held flat.
 */
const WARM_UP_SHARE = 0.5;
/**
 * "Memory flat": resident memory at the end at most this much above the figure after warm-up. At about
 * 800 requests a second, a leak of 1 KB per request would exceed it within the half minute measured.
 */
export const MAX_RSS_GROWTH = 1.1;

export interface SoakFigures {
  durationSeconds: number;
  /** How long the load really ran (autocannon's own figure). */
  elapsedSeconds: number;
  connections: number;
  requests: number;
  statusCounts: Record<string, number>;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  serverErrors: number;
  connectionErrors: number;
  timeouts: number;
  /** Answers other than the one the contract gives that kind of request, per kind. */
  unexpectedAnswers: Record<RequestKind, number>;
  /** Duplicates answered 201: the API told someone they joined twice. */
  duplicatesAcknowledged: number;
  rssWarmUpBytes: number;
  rssEndBytes: number;
  rssPeakBytes: number;
  /** Resident memory once a second through the run, in MB: the curve behind the two figures. */
  rssEverySecondMb: number[];
  rssGrowth: number;
  /** New addresses answered 201. */
  acknowledged: number;
  /** Records in the store after the runner stopped. */
  stored: number;
  /** Acknowledged addresses not in the store afterwards. */
  lost: number;
  /**
   * Stored records whose 201 never reached the client: signups in flight when the run stopped at its time
   * limit (at most one per connection).
   */
  storedUnacknowledged: number;
  /** Stored records that no new signup asked for (a duplicate stored apart, say): must be none. */
  storedUnexpected: number;
}

export async function runSoak({
  durationSeconds = 60,
  connections = 64,
}: SoakOptions = {}): Promise<SoakFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mandje-soak-'));
  try {
    const runner = await startRunnerProcess(dataDir);
    const runId = Date.now().toString(36);
    const acknowledged = new Set<string>();
    const acknowledgedList: string[] = [];
    const sentNew = new Set<string>();
    const unexpectedAnswers: Record<RequestKind, number> = {
      new: 0,
      duplicate: 0,
      invalidEmail: 0,
      wrongContentType: 0,
    };
    let duplicatesAcknowledged = 0;
    let sent = 0;
    let duplicates = 0;

    // A runner that dies mid-run shows in the load's errors and its exit code: then there is no sample.
    const sampleRss = () => {
      try {
        return runner.rssBytes();
      } catch {
        return Number.NaN;
      }
    };
    const rssSamples: number[] = [];
    let rssWarmUpBytes = Number.NaN;
    const warmUp = setTimeout(
      () => {
        rssWarmUpBytes = sampleRss();
      },
      durationSeconds * WARM_UP_SHARE * 1000,
    );
    const sampler = setInterval(() => rssSamples.push(sampleRss()), 1000);

    let result: Awaited<ReturnType<typeof runLoad>>;
    let rssEndBytes: number;
    try {
      result = await runLoad({
        url: runner.url,
        connections,
        seconds: durationSeconds,
        // A safety bound only: far above what one machine serves in that time.
        maxRequests: durationSeconds * 20_000,
        setupRequest: (request, context) => {
          const index = sent++;
          let kind = MIX[index % MIX.length] as RequestKind;
          if (kind === 'duplicate' && acknowledgedList.length === 0) kind = 'new';
          let email: string;
          if (kind === 'duplicate') {
            const earlier = acknowledgedList[(index * 7_919) % acknowledgedList.length] as string;
            // Every other duplicate as a person might retype it: other case, stray spaces.
            email = duplicates++ % 2 === 0 ? earlier : `  ${earlier.toUpperCase()} `;
          } else if (kind === 'invalidEmail') {
            email = `soak.${runId}.${index}.example.nl`;
          } else {
            email = `soak.${runId}.${index}@example.nl`;
            if (kind === 'new') sentNew.add(email);
          }
          context.kind = kind;
          context.email = email;
          return {
            ...request,
            headers: { 'content-type': kind === 'wrongContentType' ? 'text/plain' : 'application/json' },
            body: JSON.stringify({ email, language: index % 3 === 0 ? 'en' : 'nl' }),
          };
        },
        onResponse: (status, context) => {
          const kind = context.kind as RequestKind;
          if (status !== EXPECTED_STATUS[kind]) unexpectedAnswers[kind]++;
          if (status !== 201) return;
          if (kind === 'new') {
            acknowledged.add(context.email as string);
            acknowledgedList.push(context.email as string);
          } else if (kind === 'duplicate') {
            duplicatesAcknowledged++;
          }
        },
      });
      rssEndBytes = sampleRss();
    } finally {
      clearTimeout(warmUp);
      clearInterval(sampler);
      await runner.stop();
    }

    // The runner has let go of the folder: open it again and see what it kept.
    const store = await startBenchStore(dataDir);
    let stored: Set<string>;
    try {
      stored = await storedAddresses(store.endpoint);
    } finally {
      await store.close();
    }
    const lost = [...acknowledged].filter((email) => !stored.has(emailKey(email) ?? email)).length;

    const statuses = statusCounts(result);
    const serverErrors = Object.entries(statuses)
      .filter(([status]) => status.startsWith('5'))
      .reduce((sum, [, count]) => sum + count, 0);
    const requests = Object.values(statuses).reduce((sum, count) => sum + count, 0);
    return {
      durationSeconds,
      elapsedSeconds: round(result.duration),
      connections,
      requests,
      statusCounts: statuses,
      requestsPerSecond: round(requests / result.duration, 0),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      serverErrors,
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      unexpectedAnswers,
      duplicatesAcknowledged,
      rssWarmUpBytes,
      rssEndBytes,
      rssPeakBytes: Math.max(rssEndBytes, ...rssSamples),
      rssEverySecondMb: rssSamples.map((bytes) => round(bytes / 1024 / 1024, 1)),
      rssGrowth: round(rssEndBytes / rssWarmUpBytes, 3),
      acknowledged: acknowledged.size,
      stored: stored.size,
      lost,
      storedUnacknowledged: [...stored].filter((email) => sentNew.has(email) && !acknowledged.has(email))
        .length,
      storedUnexpected: [...stored].filter((email) => !sentNew.has(email)).length,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The criteria for the full soak, each with whether this run met it. */
export function soakCriteria(figures: SoakFigures) {
  return {
    noServerErrors: figures.serverErrors === 0,
    noLostAcknowledgedWrites: figures.lost === 0,
    noUnexpectedRecords: figures.storedUnexpected === 0,
    memoryFlat: figures.rssGrowth <= MAX_RSS_GROWTH,
    everyAnswerAsContracted:
      figures.connectionErrors === 0 &&
      figures.duplicatesAcknowledged === 0 &&
      Object.values(figures.unexpectedAnswers).every((count) => count === 0),
  };
}

export interface SoakResults extends SoakFigures {
  criteria: ReturnType<typeof soakCriteria>;
}

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function soakSection(results: SoakResults): BenchSection {
  const { criteria } = results;
  const statuses = Object.entries(results.statusCounts)
    .map(([status, requests]) => `${status}: ${count(requests)}`)
    .join(', ');
  const otherAnswers =
    Object.values(results.unexpectedAnswers).reduce((sum, answers) => sum + answers, 0) +
    results.connectionErrors;
  return {
    name: 'soak',
    title: `Soak: ${results.durationSeconds} s of mixed signups at concurrency ${results.connections}`,
    results: {},
    table: {
      head: ['Soak', 'Figure', 'Criterion'],
      rows: [
        ['Requests (by status)', `${count(results.requests)} (${statuses})`, ''],
        ['Throughput', `${results.requestsPerSecond} req/s`, ''],
        ['Latency p50 / p99', `${wholeMs(results.latencyP50Ms)} / ${wholeMs(results.latencyP99Ms)}`, ''],
        ['5xx answers', results.serverErrors, `0: ${verdict(criteria.noServerErrors)}`],
        [
          'Acknowledged (201) / stored / lost',
          `${count(results.acknowledged)} / ${count(results.stored)} / ${results.lost}`,
          `0 lost: ${verdict(criteria.noLostAcknowledgedWrites)}`,
        ],
        [
          'Stored records no new signup asked for',
          results.storedUnexpected,
          `0: ${verdict(criteria.noUnexpectedRecords)}`,
        ],
        [
          'Runner RSS after warm-up / end (peak)',
          `${mb(results.rssWarmUpBytes)} / ${mb(results.rssEndBytes)} (${mb(results.rssPeakBytes)})`,
          `end ÷ warm-up ${times(results.rssGrowth)}: ${verdict(criteria.memoryFlat)}`,
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
      `${results.storedUnacknowledged} stored signups were in flight when the run reached its time limit, so their 201 was never read; they count as stored, not acknowledged.`,
      'The runner runs in its own process on a data folder on disk; its resident memory is read from /proc halfway through and at the end. Afterwards it is stopped with SIGTERM, the folder reopened and every acknowledged address looked up.',
    ],
  };
}

export async function measureSoak(options: SoakOptions = {}): Promise<BenchSection> {
  const figures = await runSoak(options);
  const results: SoakResults = { ...figures, criteria: soakCriteria(figures) };
  return { ...soakSection(results), results: { ...results } };
}

if (import.meta.filename === process.argv[1]) {
  const seconds = Number(process.argv[2] ?? 60);
  console.log(JSON.stringify(await measureSoak({ durationSeconds: seconds }), null, 2));
}
