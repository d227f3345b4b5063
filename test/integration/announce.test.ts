import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, expect, it } from 'vitest';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { suppressMailbox } from '../../functions/mailer/mail-limit';
import { LOCAL_MAIL_LIMIT_TABLE_NAME } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { person, seededStore, waitlistTool } from './waitlist-tool-run';

afterEach(killRunnerChildren);

/** Confirmed people in both languages, and one of each kind that must get nothing. */
const PEOPLE = [
  person('ann@example.nl', { status: 'confirmed' }),
  person('bob@example.nl', { status: 'confirmed' }),
  person('cat@example.com', { language: 'en', status: 'confirmed' }),
  person('dan@example.nl'),
  person('fay@example.nl', { status: 'confirmed', mailSuppressed: 'bounce' }),
  person('gus@example.com', { language: 'en', status: 'confirmed', mailSuppressed: 'complaint' }),
  // Hal is confirmed, but the mailbox bounced for good under another spelling.
  person('hal@example.nl', { status: 'confirmed' }),
  person('hal+old@example.nl', { mailSuppressed: 'bounce' }),
];

/** Every mail in the data folder's outbox, parsed as a mail client would. */
async function outboxMails(dataDir: string) {
  const outbox = join(dataDir, 'outbox');
  const files = existsSync(outbox) ? readdirSync(outbox).filter((file) => file.endsWith('.eml')) : [];
  return Promise.all(
    files.map(async (file) => {
      const mail = await simpleParser(readFileSync(join(outbox, file)));
      const to = (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? '';
      const header = (name: string) =>
        mail.headerLines.find(({ key }) => key === name)?.line.replace(/^[^:]*:\s*/, '');
      return { mail, to, header };
    }),
  );
}

it('previews and counts in a dry run, tests to one address, then sends each confirmed person one mail with a one-click leave link, skipping whom the dry run skips', async () => {
  // Hal's mailbox suppressed as mail-events does on a bounce.
  const dataDir = await seededStore(PEOPLE, (client) =>
    suppressMailbox({ client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME }, 'hal+old@example.nl', {
      reason: 'bounce',
      at: '2026-02-01T00:00:00.000Z',
    }),
  );
  const folder = join(mkdtempSync(join(tmpdir(), 'mandje-announce-')), 'launch');
  mkdirSync(folder);
  writeFileSync(join(folder, 'nl.md'), 'Subject: Mandje is er!\n\nHoi,\n\nMandje is klaar.\n');
  writeFileSync(join(folder, 'en.md'), 'Subject: Mandje is here!\n\nHello,\n\nMandje is ready.\n');
  let env = {};
  const tool = (...args: string[]) => waitlistTool(['announce', folder, ...args, '--data-dir', dataDir], env);
  // Fay's record bounced, and so did Hal's mailbox, under both its spellings.
  const skipped = 'Skipped: pending 1, bounced 3, complained 1, already sent this announcement 0';

  const dryRun = await tool('--rate', '0.001');

  expect(dryRun.code).toBe(0);
  expect(dryRun.stdout).toContain('Would send to 3 confirmed people: nl 2, en 1');
  expect(dryRun.stdout).toContain(skipped);
  expect(dryRun.stdout).not.toMatch(/quota/i); // none on one machine
  expect(readdirSync(join(folder, 'preview')).sort()).toEqual(['en.eml', 'nl.eml']);
  expect((await simpleParser(readFileSync(join(folder, 'preview', 'nl.eml')))).subject).toBe('Mandje is er!');
  expect(await outboxMails(dataDir)).toEqual([]);

  expect((await tool('--test-to', 'Operator@Example.org')).code).toBe(0);
  const tests = await outboxMails(dataDir);
  expect(tests.map(({ to }) => to)).toEqual(['Operator@example.org', 'Operator@example.org']);
  expect(tests.map(({ mail }) => mail.subject).sort()).toEqual(['Mandje is er!', 'Mandje is here!']);

  const runner = await startRunnerChild(dataDir, { env: { SIGNUP_RATE_LIMIT: '0' } });
  env = { MANDJE_SITE_URL: runner.url };
  const sent = await tool('--send');

  expect(sent.code).toBe(0);
  // The test mails marked nobody: all three are still owed it.
  expect(sent.stdout).toContain('Sent 3: nl 2, en 1');
  expect(sent.stdout).toContain(skipped);
  const mails = (await outboxMails(dataDir)).filter(({ to }) => !to.startsWith('Operator'));
  expect(mails.map(({ to }) => to).sort()).toEqual(['ann@example.nl', 'bob@example.nl', 'cat@example.com']);
  for (const { mail, to, header } of mails) {
    expect(mail.subject).toBe(to === 'cat@example.com' ? 'Mandje is here!' : 'Mandje is er!');
    expect(header('list-unsubscribe-post')).toBe(`${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`);
    expect(mail.text).toContain(header('list-unsubscribe')?.slice(1, -1));
  }
  const again = await tool('--send');
  expect(again.stdout).toContain('Sent 0: nl 0, en 0');
  expect(again.stdout).toContain('already sent this announcement 3');
  await runner.stop();
});
