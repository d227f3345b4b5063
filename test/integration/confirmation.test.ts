/**
 * Confirmation by mail through the local runner, as a person goes through it: sign up, find the mail in
 * the outbox, open its link (which confirms nothing), press the button (which does). Real handlers, the
 * real mailer writing .eml files, dynalite with the production table and its token index.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_PATH, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { emailKey } from '#contract/email-address';
import { LATE_MAIL_MINUTES } from '#contract/mail-pace';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `${label}.${Date.now()}.${++runId}@example.nl`;

/** A built site in miniature with the confirmation page of each language, as the build writes them. */
function siteWithConfirmPages(): string {
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  mkdirSync(join(distDir, '.mandje'));
  for (const language of ['nl', 'en']) {
    writeFileSync(
      join(distDir, '.mandje', `confirm.${language}.html`),
      `<!doctype html><html lang="${language}"><body><form method="post" action="/api/confirm"><input type="hidden" name="token" value="${TOKEN_PLACEHOLDER}"><button>Confirm</button></form></body></html>`,
    );
  }
  return distDir;
}

beforeAll(async () => {
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: siteWithConfirmPages() });
});

afterAll(async () => {
  await runner?.close();
});

afterEach(killRunnerChildren);

const store = () => localDocumentClient(storeAddressFromEnvironment() as string);
async function recordOf(email: string): Promise<WaitlistRecord | undefined> {
  const client = store();
  try {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: emailKey(email) } }),
    );
    return Item as WaitlistRecord | undefined;
  } finally {
    client.destroy();
  }
}

/** The .eml files in the outbox addressed to `email`. */
function mailsTo(email: string, outboxDir = runner.outboxDir as string): string[] {
  return readdirSync(outboxDir)
    .map((file) => readFileSync(join(outboxDir, file), 'utf8'))
    .filter((raw) => raw.includes(`To: ${email}\r\n`));
}

/** Waits (a few seconds at most) until `count` mails to `email` are in the outbox. */
async function mailsArrive(email: string, count: number, outboxDir?: string): Promise<string[]> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const mails = mailsTo(email, outboxDir);
    if (mails.length >= count) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mailsTo(email, outboxDir);
}

/** The confirmation link in a raw mail's plain-text part. */
function linkIn(raw: string): URL {
  const part = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
  const text = Buffer.from(part.replace(/\r\n/g, ''), 'base64').toString();
  return new URL(text.match(/http:\/\/\S+\/api\/confirm\?\S+/)?.[0] ?? 'http://missing');
}

const press = async (token: string) => {
  const response = await fetch(new URL(CONFIRM_PATH, runner.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return { status: response.status, body: await response.json() };
};

describe('confirming a signup by mail', () => {
  it('mails one link; opening it confirms nothing; pressing the button does, once', async () => {
    const email = newAddress('confirm');
    expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(201);
    expect(await recordOf(email)).toMatchObject({ status: 'pending', mailsRequested: 1 });

    const [mail, ...more] = await mailsArrive(email, 1);
    expect(more).toHaveLength(0);
    const link = linkIn(mail as string);
    expect(link.origin + link.pathname).toBe(new URL(CONFIRM_PATH, runner.url).href);
    expect(link.searchParams.get('lang')).toBe('en');
    const token = link.searchParams.get('t') as string;
    expect(link.href).not.toContain('example.nl');

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain(`name="token" value="${token}"`);
    expect(await recordOf(email)).toMatchObject({ status: 'pending' });

    expect(await press(token)).toEqual({ status: 200, body: { result: 'confirmed' } });
    const confirmed = await recordOf(email);
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmedConsentVersion: expect.any(String) });
    expect(Date.parse(confirmed?.confirmedAt ?? '')).toBeGreaterThan(Date.parse(confirmed?.createdAt ?? ''));
    expect(JSON.stringify(confirmed)).not.toContain(token);

    // The token is used up: pressing again changes nothing and says so.
    expect(await press(token)).toEqual({ status: 200, body: { result: 'already-confirmed' } });
    // A confirmed address that signs up again gets no mail.
    expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('tells two presses at once apart: one confirms, the other hears it is already confirmed', async () => {
    const email = newAddress('twice');
    await postJoin(runner.url, { email, language: 'nl' });
    const token = linkIn((await mailsArrive(email, 1))[0] as string).searchParams.get('t') as string;

    const answers = await Promise.all([press(token), press(token), press(token)]);
    expect(answers.map(({ body }) => body.result).sort()).toEqual([
      'already-confirmed',
      'already-confirmed',
      'confirmed',
    ]);
    expect(await recordOf(email)).toMatchObject({ status: 'confirmed' });
  });
});

describe('mails owed when the runner stopped', () => {
  it('are sent at the next start, however long ago they were asked for: an answered signup is not dropped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    // A first start makes the table; then two signups are left owing their mail, as a stop mid-queue does.
    await (await startRunnerChild(dataDir)).stop();
    const recent = newAddress('owed.recent');
    const stale = newAddress('owed.stale');
    const owing = (email: string, minutesAgo: number): WaitlistRecord => ({
      email: emailKey(email) as string,
      mailbox: mailboxHashOf(emailKey(email) as string),
      emailAsEntered: email,
      language: 'nl',
      createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      consentVersion: 'test',
      status: 'pending',
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
      mailRequestId: `request-${minutesAgo}-${randomUUID()}`,
      mailRequestedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      mailsRequested: 1,
    });
    const closed = await startLocalDynamoDB(dataDir);
    const client = localDocumentClient(closed.endpoint);
    try {
      await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item: owing(recent, 5) }));
      await client.send(
        new PutCommand({ TableName: LOCAL_TABLE_NAME, Item: owing(stale, LATE_MAIL_MINUTES + 5) }),
      );
    } finally {
      client.destroy();
      await closed.close();
    }

    const child = await startRunnerChild(dataDir);
    const outbox = join(dataDir, 'outbox');
    const [mail] = await mailsArrive(recent, 1, outbox);
    expect(mail, 'the owed mail, sent at start').toBeDefined();
    expect(linkIn(mail as string).pathname).toBe(CONFIRM_PATH);
    expect(
      await mailsArrive(stale, 1, outbox),
      'the one owed for longer than a mail may wait: late, and still sent',
    ).toHaveLength(1);
    await child.stop();
  });
});
