/**
 * The announcement through the local outbox: mails per second with no rate limit and the operator's
 * tool's peak memory (RSS) sending to 10,000 and to 100,000 confirmed people, and the rate achieved
 * against `--rate 50`. The memory should be flat: the table is read a page at a time. The tool runs as
 * the operator runs it (a process of its own), on a store seeded with BatchWriteItem.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ensureWaitlistTable, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../local/local-store-client';
import { ROOT_DIR } from './bundle';
import type { BenchSection } from './report';
import { round, times } from './statistics';
import { count } from './table';

const BATCH = 25;
const WRITERS = 16;
/** The `--rate` the paced run asks for, mails per second. */
const PACED_RATE = 50;

/** `count` confirmed people, half in each language, written 25 at a time by 16 writers. */
export async function seed(dataDir: string, count: number): Promise<void> {
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

export function announcementFolder(): string {
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

/** The tool's peak resident memory so far, from the kernel (VmHWM), in MiB. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** Runs `announce --send` as the operator would; what it printed and its peak memory. */
async function sendAll(
  dataDir: string,
  rate?: number,
): Promise<{ sent: number; mailsPerSecond: number; peakMiB: number }> {
  const args = ['--import', 'tsx', 'operator/waitlist-tool.ts', 'announce', announcementFolder(), '--send'];
  if (rate !== undefined) args.push('--rate', String(rate));
  args.push('--data-dir', dataDir);
  const child = spawn(process.execPath, args, { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let peak = 0;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    peak = Math.max(peak, peakRssMiB(child.pid as number) ?? 0);
    await delay(50);
  }
  const code = await exited;
  const match = /^Sent (\d+):.* \(([\d.]+) mails\/s\)/m.exec(stdout);
  if (code !== 0 || !match) throw new Error(`announce --send failed (${code}): ${stdout}`);
  return { sent: Number(match[1]), mailsPerSecond: Number(match[2]), peakMiB: peak };
}

async function measured(count: number, rate?: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mandje-bench-data-'));
  try {
    await seed(dataDir, count);
    return await sendAll(dataDir, rate);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface AnnounceResults {
  unlimitedMailsPerSecond: number;
  pacedTargetPerSecond: number;
  pacedAchievedPerSecond: number;
  pacedErrorPercent: number;
  /** One run with no rate limit per list size, smallest first. */
  peakRss: { confirmed: number; peakRssMiB: number; mailsPerSecond: number }[];
  /** Peak memory sending to the largest list over that to the smallest. */
  peakRssGrowth: number;
}

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function announceSection(results: AnnounceResults): BenchSection {
  return {
    name: 'announce',
    title: 'Announcement: rate and memory (local outbox)',
    results: {},
    table: {
      head: ['Measure', 'Value'],
      rows: [
        ...results.peakRss.map(({ confirmed, mailsPerSecond }) => [
          `Mails/s, no rate limit (${count(confirmed)} confirmed)`,
          mailsPerSecond,
        ]),
        [
          `Mails/s achieved at --rate ${results.pacedTargetPerSecond}`,
          `${results.pacedAchievedPerSecond} (${results.pacedErrorPercent}% off)`,
        ],
        ...results.peakRss.map(({ confirmed, peakRssMiB }) => [
          `Peak RSS sending to ${count(confirmed)} confirmed`,
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

export async function measureAnnounce({
  log = (line: string) => console.error(line),
  sizes = [10_000, 100_000],
}: {
  log?: (line: string) => void;
  sizes?: number[];
} = {}): Promise<BenchSection> {
  log(`Announcement: --rate ${PACED_RATE}, 500 confirmed …`);
  const paced = await measured(500, PACED_RATE);
  const memory: { confirmed: number; peakMiB: number; mailsPerSecond: number }[] = [];
  for (const confirmed of sizes) {
    log(`Announcement: no rate limit, sending to ${count(confirmed)} …`);
    const run = await measured(confirmed);
    memory.push({ confirmed, peakMiB: run.peakMiB, mailsPerSecond: run.mailsPerSecond });
  }
  const unlimited = memory[0] ?? { mailsPerSecond: 0 };
  const pacedError = Math.abs(paced.mailsPerSecond - PACED_RATE) / PACED_RATE;
  const growth = (memory.at(-1)?.peakMiB ?? 0) / (memory[0]?.peakMiB || 1);
  const results: AnnounceResults = {
    unlimitedMailsPerSecond: round(unlimited.mailsPerSecond, 1),
    pacedTargetPerSecond: PACED_RATE,
    pacedAchievedPerSecond: round(paced.mailsPerSecond, 2),
    pacedErrorPercent: round(pacedError * 100, 2),
    peakRss: memory.map(({ confirmed, peakMiB, mailsPerSecond }) => ({
      confirmed,
      peakRssMiB: round(peakMiB, 1),
      mailsPerSecond: round(mailsPerSecond, 1),
    })),
    peakRssGrowth: round(growth, 2),
  };
  return { ...announceSection(results), results: { ...results } };
}
