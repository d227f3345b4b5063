/**
 * An acknowledged signup is not dropped: mails owed when the runner stopped go out at its next start.
 * The real runner in a child process, the real mailer writing .eml files, dynalite on disk.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emailKey } from '#contract/email-address';
import { LATE_MAIL_MINUTES } from '#contract/mail-pace';
import { joinWaitlist } from '../../functions/waitlist/join-waitlist';
import { startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';

afterEach(killRunnerChildren);

/** Waits (a few seconds at most) for a mail to `email` in `outboxDir`. */
async function mailTo(email: string, outboxDir: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const mail = readdirSync(outboxDir)
      .map((file) => readFileSync(join(outboxDir, file), 'utf8'))
      .find((raw) => raw.includes(`To: ${email}\r\n`));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe('mails owed when the runner stopped', () => {
  it('are sent at the next start, however long ago they were asked for: an answered signup is not dropped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    // A first start makes the table; then two signups are left owing their mail, as a stop mid-queue does.
    await (await startRunnerChild(dataDir)).stop();
    const stamp = `${Date.now()}`;
    const [recent, stale] = [`owed.recent.${stamp}@example.nl`, `owed.stale.${stamp}@example.nl`];
    const closed = await startLocalDynamoDB(dataDir);
    const client = localDocumentClient(closed.endpoint);
    const owing = (email: string, minutesAgo: number) =>
      joinWaitlist(
        { client, tableName: LOCAL_TABLE_NAME },
        { email, key: emailKey(email) as string, language: 'nl' },
        { now: new Date(Date.now() - minutesAgo * 60_000) },
      );
    try {
      await owing(recent, 5);
      await owing(stale, LATE_MAIL_MINUTES + 5);
    } finally {
      client.destroy();
      await closed.close();
    }

    const child = await startRunnerChild(dataDir);
    const outbox = join(dataDir, 'outbox');
    expect(await mailTo(recent, outbox), 'the owed mail, sent at start').toBeDefined();
    expect(
      await mailTo(stale, outbox),
      'the one owed for longer than a mail may wait: late, and still sent',
    ).toBeDefined();
    await child.stop();
  });
});
