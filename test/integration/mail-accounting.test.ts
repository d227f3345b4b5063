/**
 * Every mail accounted for, through the runner in a process of its own: killed with `kill -9` while it
 * writes mails, its outbox full (needs root, for the tmpfs mount); and the mail limit's windows ended as
 * DynamoDB's time to live ends them on AWS. A full or read-only data folder: store-durability.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PutCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { ensureWaitlistTable, runningStoreEndpoint, startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_MAIL_LIMIT_TABLE_NAME,
  LOCAL_TABLE_NAME,
  localDocumentClient,
} from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin, withConcurrency } from './waitlist-api';

const mounts: string[] = [];
afterEach(() => {
  killRunnerChildren();
  for (const dir of mounts.splice(0).reverse()) execFileSync('umount', ['-l', dir]);
});

/** A small file system of its own at `dir`, to fill or make read-only. */
function mountTmpfs(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
}

/** Fills the file system `dir` is on, with one file; returns it, to remove when space should return. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  // dd stops at the first write the full file system refuses, to its last block.
  expect(() => execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=512'], { stdio: 'pipe' })).toThrow(
    /No space left/,
  );
  return filler;
}

const RUNNER_ENV = { SIGNUP_RATE_LIMIT: '0' };
let runId = 0;
const addresses = (label: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${label}.${Date.now()}.${++runId}.${index}@example.nl`);

async function records(dataDir: string): Promise<WaitlistRecord[]> {
  const client = localDocumentClient(runningStoreEndpoint(dataDir) as string, { maxAttempts: 1 });
  const found: WaitlistRecord[] = [];
  try {
    for await (const page of paginateScan({ client }, { TableName: LOCAL_TABLE_NAME })) {
      found.push(...((page.Items ?? []) as WaitlistRecord[]));
    }
  } finally {
    client.destroy();
  }
  return found;
}

/** The outbox's files: mails by name, and anything else (partial files) apart. */
function outbox(outboxDir: string) {
  const files = readdirSync(outboxDir).filter(
    (name) => name !== 'filler' && statSync(join(outboxDir, name)).isFile(),
  );
  return {
    mails: new Map(
      files
        .filter((name) => name.endsWith('.eml'))
        .map((name) => [name, readFileSync(join(outboxDir, name), 'utf8')]),
    ),
    others: files.filter((name) => !name.endsWith('.eml')),
    empty: files.filter((name) => statSync(join(outboxDir, name)).size === 0),
  };
}

/** A mail as the mailer composes it: headers, both parts, and the closing boundary at its very end. */
const isComplete = (raw: string, requestId: string) =>
  raw.includes(`Message-ID: <${requestId}@`) && /--=_mandje-alternative_=--\r?\n$/.test(raw);

/** Once every pending record's mail is marked sent: exactly one complete .eml named after each request. */
async function expectEveryPendingRecordMailedOnce(dataDir: string, outboxDir: string): Promise<number> {
  let pending: WaitlistRecord[] = [];
  for (let waited = 0; waited < 30_000; waited += 200) {
    pending = (await records(dataDir)).filter((record) => record.status === 'pending');
    if (pending.every((record) => record.mailedRequestId === record.mailRequestId)) break;
    await delay(200);
  }
  const { mails, empty } = outbox(outboxDir);
  expect(empty).toEqual([]);
  for (const record of pending) {
    expect(record.mailedRequestId).toBe(record.mailRequestId);
    const named = [...mails.keys()].filter((name) => name.startsWith(`${record.mailRequestId}@`));
    expect(named).toHaveLength(1);
    expect(isComplete(mails.get(named[0] as string) as string, record.mailRequestId as string)).toBe(true);
  }
  // None twice, and none for anyone else.
  expect(mails.size).toBe(pending.length);
  return pending.length;
}

/** Signs up every address, `concurrency` at a time; the statuses, with 0 for a request cut off. */
async function signUp(url: string, emails: string[], concurrency = 8): Promise<Map<string, number>> {
  const answers = await withConcurrency(
    concurrency,
    emails.map((email) => async () => {
      const status = await postJoin(url, { email, language: 'nl' }).then(
        (answer) => answer.status,
        () => 0,
      );
      return [email, status] as const;
    }),
  );
  return new Map(answers);
}

describe('a runner killed while it writes mails', () => {
  it('leaves each pending signup exactly one complete mail after every restart, over six rounds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-kill-'));
    const outboxDir = join(dataDir, 'outbox');
    const stored = new Set<string>();
    for (let round = 1; round <= 6; round++) {
      const runner = await startRunnerChild(dataDir, { env: RUNNER_ENV });
      if (round > 1) await expectEveryPendingRecordMailedOnce(dataDir, outboxDir);
      if (round === 6) {
        await runner.stop();
        break;
      }
      const emails = addresses(`kill${round}`, 30);
      const answers = signUp(runner.url, emails);
      // Some mails are out, the rest on their way: kill it mid-write.
      await runner.printed(/Confirmation mail in /);
      runner.child.kill('SIGKILL');
      await runner.exited;
      for (const [email, status] of await answers) if (status === 201) stored.add(email);
    }
    const runner = await startRunnerChild(dataDir, { env: RUNNER_ENV });
    const keys = new Set((await records(dataDir)).map((record) => record.email));
    expect([...stored].filter((email) => !keys.has(email))).toEqual([]);
    expect(outbox(outboxDir).others).toEqual([]);
    await runner.stop();
  });
});

describe('a full outbox', () => {
  it('names ENOSPC, leaves no empty mail, and sends every owed mail once space returns', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-full-outbox-'));
    const outboxDir = join(dataDir, 'outbox');
    mountTmpfs(outboxDir, '256k');
    const filler = fill(outboxDir);
    const runner = await startRunnerChild(dataDir, { env: RUNNER_ENV });

    const answers = await signUp(runner.url, addresses('fullbox', 8));
    expect([...answers.values()].every((status) => status === 201)).toBe(true);
    await runner.printed(/"errorName":"ENOSPC"/);
    expect(outbox(outboxDir)).toMatchObject({ mails: new Map(), others: [], empty: [] });

    rmSync(filler);
    expect(await expectEveryPendingRecordMailedOnce(dataDir, outboxDir)).toBe(8);
    await runner.stop();
  });
});

describe('the limit windows kept on one machine', () => {
  it('are deleted once they end, when the runner starts, as DynamoDB’s time to live deletes them on AWS; a suppressed mailbox, which has no end, is kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-limits-'));
    const now = Math.floor(Date.now() / 1000);
    const store = await startLocalDynamoDB(dataDir);
    await ensureWaitlistTable(store.endpoint);
    const client = localDocumentClient(store.endpoint, { maxAttempts: 1 });
    const put = (key: string, expiresAt: number) =>
      client.send(
        new PutCommand({
          TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
          Item: { [MAIL_LIMIT_TABLE_KEY.name]: key, expiresAt, requestIds: new Set(['r']) },
        }),
      );
    await put('ended', now - 60);
    await put('current', now + 3_600);
    await client.send(
      new PutCommand({
        TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
        Item: { [MAIL_LIMIT_TABLE_KEY.name]: 'suppressed', mailSuppressed: 'complaint' },
      }),
    );
    client.destroy();
    await store.close();

    const child = await startRunnerChild(dataDir);
    await delay(1_500);
    await child.stop();

    const reopened = await startLocalDynamoDB(dataDir);
    const reader = localDocumentClient(reopened.endpoint, { maxAttempts: 1 });
    const keys: unknown[] = [];
    for await (const page of paginateScan({ client: reader }, { TableName: LOCAL_MAIL_LIMIT_TABLE_NAME }))
      keys.push(...(page.Items ?? []).map((item) => item[MAIL_LIMIT_TABLE_KEY.name]));
    reader.destroy();
    await reopened.close();
    expect(keys.sort()).toEqual(['current', 'suppressed']);
  });
});
