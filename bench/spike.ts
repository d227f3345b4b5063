/**
 * A launch-day spike on one machine, with the runner acting as SES does at a maximum send rate
 * (SES_MAX_SEND_RATE): a burst of signups through its HTTP API, then new signups while an announcement is
 * sending. Measured: the signups per second it stores, each mail's lag from the signup's answer to its
 * .eml in the outbox (the file's modification time), the send rate achieved against SES's, and how soon a
 * confirmation leaves while the announcement is sending. Both runners are processes of their own with a
 * fresh data folder; the announcement is sent by the operator's tool, as the operator runs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PACE_SHARE } from '#contract/mail-pace';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { ensureWaitlistTable, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../local/local-store-client';
import { ROOT_DIR } from './bundle';
import { runLoad, statusCounts } from './load';
import type { BenchSection } from './report';
import { type RunnerProcess, startRunnerProcess } from './runner-process';
import { percentile, round } from './statistics';
import { storedAddresses } from './store';
import { count, verdict } from './table';

const BATCH = 25;
const WRITERS = 16;
/** `count` confirmed people, half in each language, written 25 at a time by 16 writers. */
async function seed(dataDir: string, count: number): Promise<void> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    await ensureWaitlistTable(store.endpoint);
    let next = 0;
    const writer = async () => {
      while (next < count) {
        const start = next;
        next = Math.min(count, next + BATCH);
        const items = Array.from({ length: next - start }, (_, offset) => {
          const email = `person${start + offset}@example.nl`;
          return {
            PutRequest: {
              Item: {
                email,
                emailAsEntered: email,
                language: (start + offset) % 2 ? 'en' : 'nl',
                status: 'confirmed',
                createdAt: '2026-01-01T00:00:00.000Z',
                consentVersion: '1',
                expiresAt: 4_000_000_000,
              },
            },
          };
        });
        let unprocessed: typeof items | undefined = items;
        while (unprocessed && unprocessed.length > 0) {
          const { UnprocessedItems } = await client.send(
            new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE_NAME]: unprocessed } }),
          );
          unprocessed = UnprocessedItems?.[LOCAL_TABLE_NAME] as typeof items | undefined;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
  } finally {
    client.destroy();
    await store.close();
  }
}

function announcementFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'mandje-bench-announce-')), 'bench');
  mkdirSync(folder);
  writeFileSync(
    join(folder, 'nl.md'),
    'Subject: Mandje is er\n\nHoi,\n\nMandje is klaar: https://mandje.nl.\n',
  );
  writeFileSync(
    join(folder, 'en.md'),
    'Subject: Mandje is here\n\nHello,\n\nMandje is ready: https://mandje.nl.\n',
  );
  return folder;
}

/** SES's maximum send rate to act as, mails per second: the figure, a new account's order. */
const RATE = 20;
const BURST_SIGNUPS = 2_000;
const BURST_CONNECTIONS = 50;
const CONFIRMED_PEOPLE = 1_000;
const SIGNUPS_DURING_ANNOUNCEMENT = 20;
const SIGNUP_SPACING_MS = 250;
/** The achieved send rate, as a share of SES's, that counts as keeping SES's pace. */
const SEND_RATE_GOAL = 0.95;
/** "Within a few seconds": as the integration test holds it (test/integration/mail-pace.test.ts). */
const CONFIRMATION_GOAL_SECONDS = 3;
/** How long the outbox may stay as it is before the mails still missing count as not sent. */
const STALL_MS = 30_000;

const sesEnvironment = { SES_MAX_SEND_RATE: String(RATE) };

interface OutboxMail {
  to: string;
  /** When its .eml was written (modification time), ms since the epoch. */
  writtenAt: number;
}

/** The outbox's mails not in `known` yet, added to it by file name; the folder may not exist yet. */
function readNewMails(outboxDir: string, known: Map<string, OutboxMail>): void {
  let files: string[];
  try {
    files = readdirSync(outboxDir).filter((file) => file.endsWith('.eml') && !known.has(file));
  } catch {
    return;
  }
  for (const file of files) {
    const path = join(outboxDir, file);
    const to = /^To: (.+)$/m.exec(readFileSync(path, 'utf8'))?.[1]?.trim().toLowerCase() ?? '';
    known.set(file, { to, writtenAt: statSync(path).mtimeMs });
  }
}

const countFiles = (dir: string) => {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
};

/** Waits until `done`, or until `progress` has not changed for STALL_MS. */
async function untilDoneOrStalled(done: () => boolean, progress: () => number): Promise<void> {
  let last = progress();
  let lastChange = Date.now();
  while (!done() && Date.now() - lastChange < STALL_MS) {
    await delay(500);
    const now = progress();
    if (now !== last) {
      last = now;
      lastChange = Date.now();
    }
  }
}

/**
 * The most moments in any one second. Of .eml write times this is information, not a check: a write ends
 * after SES (here the outbox acting as it) took the mail, so a slow disk bunches the ends; the refusal above
 * SES_MAX_SEND_RATE is what holds the rate, and test/integration/mail-pace.test.ts checks it at acceptance.
 */
function busiestSecond(moments: number[]): number {
  const sorted = [...moments].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while ((sorted[last] as number) - (sorted[first] as number) >= 1_000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Mails per second over the period they were written in: the intervals between the first and the last. */
function sendRate(moments: number[]): number {
  if (moments.length < 2) return Number.NaN;
  return ((moments.length - 1) * 1000) / (Math.max(...moments) - Math.min(...moments));
}

/** Starts a runner acting as SES at RATE on a data folder; stops it and removes the folder after `use`. */
async function withPacedRunner<T>(
  dataDir: string,
  use: (runner: RunnerProcess, outboxDir: string) => Promise<T>,
): Promise<T> {
  try {
    const runner = await startRunnerProcess(dataDir, undefined, { environment: sesEnvironment });
    try {
      return await use(runner, join(dataDir, 'outbox'));
    } finally {
      await runner.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 1. The burst: BURST_SIGNUPS new signups at once, then their mails at SES's pace. */
function measureBurst(log: (line: string) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mandje-bench-spike-'));
  return withPacedRunner(dataDir, async (runner, outboxDir) => {
    log(`Spike: ${BURST_SIGNUPS.toLocaleString('en')} signups at once, mail at ${RATE}/s …`);
    const answeredAt = new Map<string, number>();
    let sent = 0;
    const startedAt = Date.now();
    const result = await runLoad({
      url: runner.url,
      connections: BURST_CONNECTIONS,
      seconds: 120,
      maxRequests: BURST_SIGNUPS,
      setupRequest: (request, context) => {
        const email = `spike.${sent++}@example.nl`;
        context.email = email;
        return {
          ...request,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, language: sent % 2 ? 'nl' : 'en' }),
        };
      },
      onResponse: (status, context) => {
        if (status === 201) answeredAt.set(context.email as string, Date.now());
      },
    });
    const lastAnswer = Math.max(...answeredAt.values());
    const signupsPerSecond = (answeredAt.size * 1000) / (lastAnswer - startedAt);
    const stored = [...(await storedAddresses(runner.storeEndpoint))].filter((key) =>
      key.startsWith('spike.'),
    ).length;

    const mails = new Map<string, OutboxMail>();
    await untilDoneOrStalled(
      () => countFiles(outboxDir) >= answeredAt.size,
      () => countFiles(outboxDir),
    );
    readNewMails(outboxDir, mails);
    const writtenAt = new Map([...mails.values()].map((mail) => [mail.to, mail.writtenAt]));
    const lagsMs = [...answeredAt].flatMap(([email, at]) => {
      const written = writtenAt.get(email);
      return written === undefined ? [] : [written - at];
    });
    const moments = [...mails.values()].map((mail) => mail.writtenAt);
    const rate = sendRate(moments);
    return {
      requests: result.requests.total,
      statusCounts: statusCounts(result),
      errors: result.errors + result.timeouts,
      answered: answeredAt.size,
      stored,
      signupsPerSecond,
      mailed: lagsMs.length,
      outboxFiles: mails.size,
      deadLetters: countFiles(join(dataDir, 'dead-letters')),
      lagsMs,
      sendingSeconds: (Math.max(...moments) - Math.min(...moments)) / 1000,
      sendRate: rate,
      busiestSecond: busiestSecond(moments),
    };
  });
}

/** One signup through the API; when its answer came, or undefined unless it was 201. */
async function signUp(url: string, email: string): Promise<number | undefined> {
  const response = await fetch(new URL(WAITLIST_PATH, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, language: 'nl' }),
  });
  await response.arrayBuffer();
  return response.status === 201 ? Date.now() : undefined;
}

/** The operator's tool sending the announcement to the data folder's confirmed people, at SES's pace. */
function startAnnouncement(dataDir: string, folder: string) {
  const tool: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'operator/waitlist-tool.ts', 'announce', folder, '--send', '--data-dir', dataDir],
    { cwd: ROOT_DIR, env: { ...process.env, ...sesEnvironment }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  tool.stdout?.on('data', keep);
  tool.stderr?.on('data', keep);
  let running = true;
  const exited = new Promise<number | null>((resolve) => tool.once('exit', resolve)).finally(() => {
    running = false;
  });
  return {
    running: () => running,
    /** How many it sent, from its last line; throws unless it finished within `timeoutMs`. */
    async finished(timeoutMs: number): Promise<number> {
      const timer = setTimeout(() => tool.kill('SIGTERM'), timeoutMs);
      const code = await exited.finally(() => clearTimeout(timer));
      const sentCount = /^Sent (\d+)/m.exec(output)?.[1];
      if (code !== 0 || sentCount === undefined)
        throw new Error(`announce --send failed (${code}): ${output}`);
      return Number(sentCount);
    },
  };
}

/** 2. New signups while the announcement to CONFIRMED_PEOPLE is sending: how soon their mail leaves. */
async function measureDuringAnnouncement(log: (line: string) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mandje-bench-spike-'));
  log(`Spike: an announcement to ${CONFIRMED_PEOPLE.toLocaleString('en')} confirmed, 20 signups during it …`);
  try {
    await seed(dataDir, CONFIRMED_PEOPLE);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return withPacedRunner(dataDir, async (runner, outboxDir) => {
    const folder = announcementFolder();
    const announcement = startAnnouncement(dataDir, folder);
    try {
      // Once it is under way (three seconds of it), so that the signups meet it sending.
      await untilDoneOrStalled(
        () => countFiles(outboxDir) >= 3 * RATE || !announcement.running(),
        () => countFiles(outboxDir),
      );
      if (!announcement.running()) throw new Error('the announcement ended before the signups');
      const answeredAt = new Map<string, number>();
      for (let index = 0; index < SIGNUPS_DURING_ANNOUNCEMENT; index++) {
        const email = `during.${index}@example.nl`;
        const at = await signUp(runner.url, email);
        if (at !== undefined) answeredAt.set(email, at);
        await delay(SIGNUP_SPACING_MS);
      }
      const mails = new Map<string, OutboxMail>();
      const confirmations = () => [...mails.values()].filter((mail) => answeredAt.has(mail.to));
      await untilDoneOrStalled(
        () => {
          readNewMails(outboxDir, mails);
          return confirmations().length >= answeredAt.size;
        },
        () => mails.size,
      );
      const sent = await announcement.finished(CONFIRMED_PEOPLE * (1000 / RATE) * 2 + 60_000);
      readNewMails(outboxDir, mails);
      const waitsMs = confirmations().map((mail) => mail.writtenAt - (answeredAt.get(mail.to) as number));
      const prefix = `${basename(folder)}.`;
      const announced = [...mails]
        .filter(([file]) => file.startsWith(prefix))
        .map(([, mail]) => mail.writtenAt);
      const lastConfirmation = Math.max(...confirmations().map((mail) => mail.writtenAt));
      const allMoments = [...mails.values()].map((mail) => mail.writtenAt);
      return {
        answered: answeredAt.size,
        confirmed: waitsMs.length,
        waitsMs,
        announcementSent: sent,
        announcementStillSending: Math.max(...announced) > lastConfirmation,
        allMailRate: sendRate(allMoments),
        busiestSecond: busiestSecond(allMoments),
      };
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });
}

export interface SpikeResults {
  sesMaxSendRate: number;
  burst: {
    signups: number;
    connections: number;
    requests: number;
    statusCounts: Record<string, number>;
    clientErrors: number;
    stored: number;
    storedPerSecond: number;
    mailed: number;
    outboxFiles: number;
    deadLetters: number;
    mailLagMeasuredAs: string;
    mailLagP50Seconds: number;
    mailLagP99Seconds: number;
    mailLagMaxSeconds: number;
    sendingSeconds: number;
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
    answered: number;
    confirmationsSent: number;
    confirmationP50Seconds: number;
    confirmationMaxSeconds: number;
    confirmationGoalSeconds: number;
    announcementStillSendingAfterLastConfirmation: boolean;
    announcementSent: number;
    allMailsPerSecond: number;
    busiestSecondMails: number;
  };
  /** By the keys of SPIKE_CRITERIA; results from earlier runs may hold criteria since dropped. */
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

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function spikeSection(results: SpikeResults): BenchSection {
  const { burst, duringAnnouncement: during, sesMaxSendRate: rate } = results;
  return {
    name: 'spike',
    title: `Launch-day spike (SES at ${rate} mails/s)`,
    results: {},
    table: {
      head: ['Measure', 'Value'],
      rows: [
        [
          `Signups stored per second (${count(burst.signups)} at once, ${burst.connections} connections)`,
          `${burst.storedPerSecond} (${count(burst.stored)} stored)`,
        ],
        ['Their mails sent / dead-lettered', `${count(burst.mailed)} / ${burst.deadLetters}`],
        [
          'Mail lag, signup answered → .eml: p50 / p99 / max',
          `${burst.mailLagP50Seconds} / ${burst.mailLagP99Seconds} / ${burst.mailLagMaxSeconds} s`,
        ],
        [
          `Send rate achieved (goal ≥ ${burst.achievedRatioGoal} of ${rate}/s)`,
          `${burst.achievedMailsPerSecond} mails/s (${burst.achievedRatio}); most .eml in one second ${burst.busiestSecondMails}`,
        ],
        [
          `Confirmation during an announcement to ${count(during.confirmedPeople)}: p50 / max (goal ≤ ${during.confirmationGoalSeconds} s)`,
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
      `Runner and operator's tool with SES_MAX_SEND_RATE=${rate}, each on a fresh data folder; the sender aims at ${burst.senderPaceShare} of it. A mail's lag runs from its signup's answer to its .eml's modification time; at ${rate}/s, ${count(burst.signups)} mails take at least ${burst.signups / rate} s, so the lag is SES's rate, not the runner.`,
      `During the announcement, ${during.signups} signups ${during.signupSpacingMs} ms apart once it was three seconds in; the announcement ${during.announcementStillSendingAfterLastConfirmation ? 'was still sending after the last of their confirmations' : 'had finished before the last of their confirmations'}.`,
    ],
  };
}

export async function measureSpike({
  log = (line: string) => console.error(line),
}: {
  log?: (line: string) => void;
} = {}): Promise<BenchSection> {
  const burst = await measureBurst(log);
  const during = await measureDuringAnnouncement(log);

  const lag = (p: number) => round(percentile(burst.lagsMs, p) / 1000, 1);
  const ratio = burst.sendRate / RATE;
  const wait = (p: number) => round(percentile(during.waitsMs, p) / 1000, 2);
  const maxWaitSeconds = Math.max(...during.waitsMs) / 1000;
  const criteria = {
    everySignupAnswered: burst.answered === BURST_SIGNUPS,
    everyAnsweredSignupStored: burst.stored === burst.answered,
    everyAnsweredSignupMailed: burst.mailed === burst.answered && burst.deadLetters === 0,
    sendRateAtGoal: ratio >= SEND_RATE_GOAL,
    confirmationsWithinGoalDuringAnnouncement:
      during.confirmed === SIGNUPS_DURING_ANNOUNCEMENT && maxWaitSeconds <= CONFIRMATION_GOAL_SECONDS,
    announcementSentWhole: during.announcementSent === CONFIRMED_PEOPLE,
  };
  const results: SpikeResults = {
    sesMaxSendRate: RATE,
    burst: {
      signups: BURST_SIGNUPS,
      connections: BURST_CONNECTIONS,
      requests: burst.requests,
      statusCounts: burst.statusCounts,
      clientErrors: burst.errors,
      stored: burst.stored,
      storedPerSecond: round(burst.signupsPerSecond, 1),
      mailed: burst.mailed,
      outboxFiles: burst.outboxFiles,
      deadLetters: burst.deadLetters,
      mailLagMeasuredAs: 'eml mtime minus the time the signup was answered (client clock, same machine)',
      mailLagP50Seconds: lag(50),
      mailLagP99Seconds: lag(99),
      mailLagMaxSeconds: lag(100),
      sendingSeconds: round(burst.sendingSeconds, 1),
      achievedMailsPerSecond: round(burst.sendRate, 2),
      achievedRatio: round(ratio, 3),
      achievedRatioGoal: SEND_RATE_GOAL,
      senderPaceShare: PACE_SHARE,
      busiestSecondMails: burst.busiestSecond,
    },
    duringAnnouncement: {
      confirmedPeople: CONFIRMED_PEOPLE,
      signups: SIGNUPS_DURING_ANNOUNCEMENT,
      signupSpacingMs: SIGNUP_SPACING_MS,
      answered: during.answered,
      confirmationsSent: during.confirmed,
      confirmationP50Seconds: wait(50),
      confirmationMaxSeconds: wait(100),
      confirmationGoalSeconds: CONFIRMATION_GOAL_SECONDS,
      announcementStillSendingAfterLastConfirmation: during.announcementStillSending,
      announcementSent: during.announcementSent,
      allMailsPerSecond: round(during.allMailRate, 2),
      busiestSecondMails: during.busiestSecond,
    },
    criteria,
  };
  return { ...spikeSection(results), results: { ...results } };
}
