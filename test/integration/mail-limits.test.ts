/**
 * The per-mailbox mail limit through the runner, as a flood would meet it: many spellings of one mailbox
 * each answered as a person would be, and no more than MAILS_PER_MAILBOX mails to it. Real handlers, the
 * real mailer writing .eml files, dynalite with the limit table.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PutCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_TABLE_KEY, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { deliveryKey, emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_MAIL_LIMIT_TABLE_NAME,
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin, withConcurrency } from './waitlist-api';

let runner: LocalRunner;

beforeAll(async () => {
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
    // One client sends them all here; this test is about the mailbox, not the client.
    clientPostsPerMinute: 0,
  });
});

afterAll(async () => {
  await runner?.close();
  killRunnerChildren();
});

/** Every item of a local table, read page by page. */
async function scan(tableName: string): Promise<Record<string, unknown>[]> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string, { maxAttempts: 1 });
  const items: Record<string, unknown>[] = [];
  try {
    for await (const page of paginateScan({ client }, { TableName: tableName }))
      items.push(...(page.Items ?? []));
  } finally {
    client.destroy();
  }
  return items;
}

/** Waits until no record among `keys` owes a mail any more (a minute at most). */
async function mailsSettled(keys: Set<string>): Promise<WaitlistRecord[]> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    const records = (await scan(LOCAL_TABLE_NAME)) as unknown as WaitlistRecord[];
    const ours = records.filter((record) => keys.has(record.email));
    if (ours.length === keys.size && ours.every((record) => record.mailedRequestId === record.mailRequestId))
      return ours;
    await delay(250);
  }
  throw new Error('the mails owed did not settle within a minute');
}

/** The outbox's mails to any spelling of the mailbox `key` delivers to. */
function mailsToMailbox(key: string): number {
  const outbox = runner.outboxDir as string;
  return readdirSync(outbox)
    .filter((file) => file.endsWith('.eml'))
    .filter((file) => {
      const to = /^To: (.+)$/m.exec(readFileSync(join(outbox, file), 'utf8'))?.[1]?.trim() ?? '';
      const typed = emailKey(to);
      return typed !== undefined && deliveryKey(typed) === key;
    }).length;
}

describe('the per-mailbox mail limit', () => {
  it(`sends at most ${MAILS_PER_MAILBOX} mails to 500 plus-tag and dot spellings of one Gmail mailbox, each answered as a person would be`, async () => {
    const spellings = Array.from({ length: 500 }, (_, index) => {
      const dotted = 'floodtarget'
        .split('')
        .map((char, at) => (index & (1 << at) && at < 10 ? `${char}.` : char))
        .join('');
      return `${dotted}+${index}@${index % 3 ? 'gmail.com' : 'googlemail.com'}`;
    });

    const answers = await withConcurrency(
      16,
      spellings.map((email) => () => postJoin(runner.url, { email, language: 'nl' })),
    );

    // Nothing tells the sender the limit was hit: every new spelling is a new signup to them.
    expect(answers.map((answer) => answer.status)).toEqual(spellings.map(() => 201));
    const records = await mailsSettled(new Set(spellings.map((email) => emailKey(email) as string)));
    expect(records).toHaveLength(500);
    expect(mailsToMailbox('floodtarget@gmail.com')).toBe(MAILS_PER_MAILBOX);

    // What the limit keeps: one hashed key, no address.
    const limits = await scan(LOCAL_MAIL_LIMIT_TABLE_NAME);
    expect(limits).toHaveLength(1);
    expect(limits[0]?.[MAIL_LIMIT_TABLE_KEY.name]).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(limits)).not.toMatch(/floodtarget|gmail/);
  });

  it('leaves other mailboxes their own mails while one is flooded', async () => {
    const email = `bystander.${Date.now()}@example.nl`;
    expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(201);

    await mailsSettled(new Set([emailKey(email) as string]));
    expect(mailsToMailbox(deliveryKey(emailKey(email) as string))).toBe(1);
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
