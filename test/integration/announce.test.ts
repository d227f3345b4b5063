import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { parseLeaveToken } from '../../functions/leave/leave-token';
import { suppressMailbox } from '../../functions/mailer/mail-limit';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_MAIL_LIMIT_TABLE_NAME,
  LOCAL_TABLE_NAME,
  localDocumentClient,
} from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';

const repoRoot = resolve(import.meta.dirname, '../..');
const ID = 'launch';

afterEach(killRunnerChildren);

const toolArgs = (args: string[]) => ['--import', 'tsx', 'operator/waitlist-tool.ts', ...args];

/** Runs `npm run waitlist -- ...args` as the operator would. */
async function waitlistTool(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, toolArgs(args), {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** An announcement folder named `launch`, with both languages. */
function announcementFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'mandje-announce-')), ID);
  mkdirSync(folder);
  writeFileSync(
    join(folder, 'nl.md'),
    'Subject: Mandje is er!\n\nHoi,\n\nMandje is klaar. Kijk op https://mandje.nl.\n\nLees [het verhaal](https://mandje.nl/blog).\n',
  );
  writeFileSync(
    join(folder, 'en.md'),
    'Subject: Mandje is here!\n\nHello,\n\nMandje is ready. Have a look at https://mandje.nl.\n',
  );
  return folder;
}

const person = (
  email: string,
  language: 'nl' | 'en',
  status: 'confirmed' | 'pending',
  extra: Record<string, unknown> = {},
) => ({
  email,
  mailbox: mailboxHashOf(email),
  emailAsEntered: email,
  language,
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  consentVersion: '1',
  expiresAt: 4_000_000_000,
  ...extra,
});

/** Confirmed people in both languages, and one of each kind that must get nothing. */
const PEOPLE = [
  person('ann@example.nl', 'nl', 'confirmed'),
  person('bob@example.nl', 'nl', 'confirmed'),
  person('cat@example.com', 'en', 'confirmed'),
  person('dan@example.nl', 'nl', 'pending'),
  person('eve@example.com', 'en', 'pending'),
  person('fay@example.nl', 'nl', 'confirmed', { mailSuppressed: 'bounce' }),
  person('gus@example.com', 'en', 'confirmed', { mailSuppressed: 'complaint' }),
  // Hal is confirmed, but the mailbox bounced for good under another spelling (see seedStore).
  person('hal@example.nl', 'nl', 'confirmed'),
  person('hal+old@example.nl', 'nl', 'pending', { mailSuppressed: 'bounce' }),
];

/** The records, and Hal's mailbox suppressed as mail-events does it when a mail bounces for good. */
async function seedStore(dataDir: string, items: Record<string, unknown>[]): Promise<void> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    await ensureWaitlistTable(store.endpoint);
    for (const item of items) await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item: item }));
    const limits = { client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME };
    await suppressMailbox(limits, 'hal+old@example.nl', { reason: 'bounce', at: '2026-02-01T00:00:00.000Z' });
  } finally {
    client.destroy();
    await store.close();
  }
}

async function readRecord(dataDir: string, key: string): Promise<Record<string, unknown> | undefined> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    return (await client.send(new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: key } }))).Item;
  } finally {
    client.destroy();
    await store.close();
  }
}

async function announcingOf(dataDir: string): Promise<Map<string, unknown>> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: LOCAL_TABLE_NAME }));
    return new Map(Items.map((item) => [String(item.email), item.announcing]));
  } finally {
    client.destroy();
    await store.close();
  }
}

const newDataDir = () => mkdtempSync(join(tmpdir(), 'mandje-data-'));

/** Every mail in the data folder's outbox, parsed as a mail client would. */
async function outboxMails(dataDir: string) {
  const outbox = join(dataDir, 'outbox');
  if (!existsSync(outbox)) return [];
  const files = readdirSync(outbox).filter((file) => file.endsWith('.eml'));
  return Promise.all(
    files.map(async (file) => {
      const mail = await simpleParser(readFileSync(join(outbox, file)));
      const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
      return { file, mail, to: to?.value[0]?.address ?? '' };
    }),
  );
}

/** A header's value as written (mailparser reads List-* headers into an object of its own). */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines.find(({ key }) => key === name)?.line.replace(/^[^:]*:\s*/, '');
const leaveUrlOf = (mail: ParsedMail) => (rawHeader(mail, 'list-unsubscribe') ?? '').replace(/^<|>$/g, '');

const mailsPerAddress = (mails: { to: string }[]) =>
  mails.reduce((counts, { to }) => counts.set(to, (counts.get(to) ?? 0) + 1), new Map<string, number>());

describe('npm run waitlist -- announce, on the local store', () => {
  it('in a dry run writes a preview per language and says who would get it, sending nothing, and whom not, why', async () => {
    const dataDir = newDataDir();
    await seedStore(dataDir, PEOPLE);
    const folder = announcementFolder();

    const result = await waitlistTool(['announce', folder, '--data-dir', dataDir]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Would send to 3 confirmed people: nl 2, en 1');
    // Fay's record bounced, and so did Hal's mailbox, under both its spellings.
    expect(result.stdout).toContain(
      'Skipped: pending 2, bounced 3, complained 1, already sent this announcement 0',
    );
    expect(await outboxMails(dataDir)).toEqual([]);
    const previews = readdirSync(join(folder, 'preview')).sort();
    expect(previews).toEqual(['en.eml', 'nl.eml']);
    const preview = await simpleParser(readFileSync(join(folder, 'preview', 'nl.eml')));
    expect(preview.subject).toBe('Mandje is er!');
    expect((await readRecord(dataDir, 'ann@example.nl'))?.announcements).toBeUndefined();
  });

  it('with --test-to sends exactly one mail per language to that address, marking nobody', async () => {
    const dataDir = newDataDir();
    await seedStore(dataDir, PEOPLE);

    const result = await waitlistTool([
      'announce',
      announcementFolder(),
      '--test-to',
      'Operator@Example.org',
      '--data-dir',
      dataDir,
    ]);

    expect(result.code).toBe(0);
    const mails = await outboxMails(dataDir);
    expect(mails.map(({ to }) => to)).toEqual(['Operator@example.org', 'Operator@example.org']);
    expect(mails.map(({ mail }) => mail.subject).sort()).toEqual(['Mandje is er!', 'Mandje is here!']);
    expect((await readRecord(dataDir, 'ann@example.nl'))?.announcements).toBeUndefined();
  });

  it('with --send mails each confirmed person once, in their language, with a working one-click leave link, skipping whom the dry run skips; again, nobody', async () => {
    const dataDir = newDataDir();
    await seedStore(dataDir, PEOPLE);
    const runner = await startRunnerChild(dataDir, { env: { SIGNUP_RATE_LIMIT: '0' } });
    const folder = announcementFolder();
    const env = { MANDJE_SITE_URL: runner.url };

    const first = await waitlistTool(['announce', folder, '--send', '--data-dir', dataDir], env);

    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Sent 3: nl 2, en 1');
    expect(first.stdout).toContain('Skipped: pending 2, bounced 3, complained 1,');
    const mails = (await outboxMails(dataDir)).filter(({ mail }) => mail.messageId?.startsWith(`<${ID}.`));
    expect(Object.fromEntries(mailsPerAddress(mails))).toEqual({
      'ann@example.nl': 1,
      'bob@example.nl': 1,
      'cat@example.com': 1,
    });
    for (const { mail, to } of mails) {
      expect(mail.subject).toBe(to === 'cat@example.com' ? 'Mandje is here!' : 'Mandje is er!');
      expect(rawHeader(mail, 'list-unsubscribe-post')).toBe(`${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`);
      const leaveUrl = leaveUrlOf(mail);
      expect(leaveUrl.startsWith(`${runner.url.replace(/\/$/, '')}/api/leave?`)).toBe(true);
      expect(parseLeaveToken(new URL(leaveUrl).searchParams.get('t') ?? '')).toBeDefined();
      expect(mail.text).toContain(leaveUrl);
      expect(mail.html).toContain(leaveUrl.replaceAll('&', '&amp;'));
    }

    // The one-click POST a mail client sends removes Ann.
    const ann = mails.find(({ to }) => to === 'ann@example.nl')?.mail;
    const annLeaveUrl = ann ? leaveUrlOf(ann) : '';
    const left = await fetch(annLeaveUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`,
    });
    expect(left.status).toBe(200);
    expect((await waitlistTool(['show', 'ann@example.nl', '--data-dir', dataDir])).stdout).toMatch(
      /^no record/,
    );

    const second = await waitlistTool(['announce', folder, '--send', '--data-dir', dataDir], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Sent 0: nl 0, en 0');
    expect(second.stdout).toContain('already sent this announcement 2');
    expect(
      (await outboxMails(dataDir)).filter(({ mail }) => mail.messageId?.startsWith(`<${ID}.`)),
    ).toHaveLength(3);
    await runner.stop();
  });

  it('after kill -9 in the middle of a paced send, the same command finishes it: nobody twice, at most 3 unknown, and --resend-unknown sends those', async () => {
    const dataDir = newDataDir();
    const confirmed = Array.from({ length: 100 }, (_, index) =>
      person(`p${index}@example.nl`, index % 2 ? 'en' : 'nl', 'confirmed'),
    );
    await seedStore(dataDir, confirmed);
    const folder = announcementFolder();
    const args = ['announce', folder, '--send', '--rate', '50', '--data-dir', dataDir];

    const child = spawn(process.execPath, toolArgs(args), { cwd: repoRoot, stdio: 'ignore' });
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    for (let waited = 0; (await outboxMails(dataDir)).length < 20 && waited < 30_000; waited += 50)
      await delay(50);
    child.kill('SIGKILL');
    await exited;
    const beforeRerun = (await outboxMails(dataDir)).length;
    expect(beforeRerun).toBeGreaterThanOrEqual(20);
    expect(beforeRerun).toBeLessThan(100);

    const rerun = await waitlistTool(args);

    expect(rerun.code).toBe(0);
    const unknown = Number(rerun.stdout.match(/unknown \([^)]*\) (\d+)/)?.[1]);
    expect(unknown).toBeLessThanOrEqual(3);
    const mails = await outboxMails(dataDir);
    expect(Math.max(...mailsPerAddress(mails).values())).toBe(1);
    const missing = confirmed.filter(({ email }) => !mails.some(({ to }) => to === email));
    expect(missing.length).toBeLessThanOrEqual(unknown);
    const stranded = await announcingOf(dataDir);
    for (const { email } of missing) expect(stranded.get(email)).toBe(ID);
    // Every mail in the outbox was counted once: in the first run, or the second.
    const sentSecond = Number(rerun.stdout.match(/^Sent (\d+)/m)?.[1]);
    expect(beforeRerun + sentSecond).toBe(mails.length);
    if (unknown > 0) expect(rerun.stdout).toContain(`To send those ${unknown} anyway`);

    const resent = await waitlistTool([...args, '--resend-unknown']);

    expect(resent.code).toBe(0);
    expect(resent.stdout).toMatch(/unknown \([^)]*\) 0/);
    const after = await outboxMails(dataDir);
    expect(confirmed.filter(({ email }) => !after.some(({ to }) => to === email))).toEqual([]);
    const announcing = await announcingOf(dataDir);
    expect(confirmed.filter(({ email }) => announcing.get(email) !== undefined)).toEqual([]);
  });
});

describe('npm run waitlist -- show', () => {
  it('prints everything stored about a person as a JSON list of their records, however the address is typed, and says when there is none', async () => {
    const dataDir = newDataDir();
    await seedStore(dataDir, [
      person('ann.de.vries@example.nl', 'nl', 'confirmed', { announcements: new Set([ID]) }),
    ]);

    const shown = await waitlistTool(['show', ' Ann.de.Vries@EXAMPLE.nl ', '--data-dir', dataDir]);

    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual([
      {
        announcements: [ID],
        consentVersion: '1',
        createdAt: '2026-01-01T00:00:00.000Z',
        email: 'ann.de.vries@example.nl',
        emailAsEntered: 'ann.de.vries@example.nl',
        expiresAt: 4_000_000_000,
        language: 'nl',
        mailbox: mailboxHashOf('ann.de.vries@example.nl'),
        status: 'confirmed',
      },
    ]);
    const none = await waitlistTool(['show', 'nobody@example.nl', '--data-dir', dataDir]);
    expect(none).toMatchObject({ code: 1, stdout: 'no record of nobody@example.nl\n' });
  });
});
