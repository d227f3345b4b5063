/**
 * A bounce or a complaint silences the mailbox, not the spelling: through the runner, SES's mailbox
 * simulator bounces (or complains about) the first confirmation mail, and from then on no spelling of that
 * mailbox gets any mail, a confirmation or a leave link, even once every record of it is deleted. A new
 * signup under another spelling is answered as any signup is, and mailed nothing. Real handlers, the real
 * mailer and mail-events function, dynalite.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryKey, emailKey } from '#contract/email-address';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import type { WaitlistRecord } from '#contract/waitlist-table';
import {
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { postJoin } from './waitlist-api';

let runner: LocalRunner;

beforeAll(async () => {
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
    // The dead letters (the suppressed mails) beside it, in a folder of this test's own.
    outboxDir: join(mkdtempSync(join(tmpdir(), 'mandje-suppression-')), 'outbox'),
    clientPostsPerMinute: 0,
  });
});

afterAll(async () => {
  await runner?.close();
});

async function withStore<T>(
  work: (client: ReturnType<typeof localDocumentClient>) => Promise<T>,
): Promise<T> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string, { maxAttempts: 1 });
  try {
    return await work(client);
  } finally {
    client.destroy();
  }
}

const keyOf = (email: string) => emailKey(email) as string;

const recordOf = (email: string) =>
  withStore(async (client) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: keyOf(email) }, ConsistentRead: true }),
    );
    return Item as WaitlistRecord | undefined;
  });

/** A confirmed person on the list who was never mailed here: a spelling with no mark of its own. */
const onTheList = (email: string) =>
  withStore((client) =>
    client.send(
      new PutCommand({
        TableName: LOCAL_TABLE_NAME,
        Item: {
          email: keyOf(email),
          emailAsEntered: email,
          language: 'en',
          createdAt: new Date().toISOString(),
          consentVersion: SIGNUP_NOTE_VERSION,
          status: 'confirmed',
          confirmedAt: new Date().toISOString(),
          expiresAt: Math.floor(Date.now() / 1000) + 86_400,
        } satisfies WaitlistRecord,
      }),
    ),
  );

/** What `forget` does to a record: it is gone from the store. */
const deleteRecord = (email: string) =>
  withStore((client) =>
    client.send(new DeleteCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: keyOf(email) } })),
  );

const askForLeaveLink = (email: string) =>
  fetch(new URL(LEAVE_REQUEST_PATH, runner.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, language: 'en' }),
  });

/** The outbox's mails to any spelling of the mailbox `email` delivers to. */
function mailsToMailbox(email: string): number {
  const outbox = runner.outboxDir as string;
  const mailbox = deliveryKey(keyOf(email));
  return readdirSync(outbox)
    .filter((file) => file.endsWith('.eml'))
    .filter((file) => {
      const to = /^To: (.+)$/m.exec(readFileSync(join(outbox, file), 'utf8'))?.[1]?.trim() ?? '';
      const typed = emailKey(to);
      return typed !== undefined && deliveryKey(typed) === mailbox;
    }).length;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (await check()) return;
    await delay(100);
  }
  throw new Error(`waited in vain for ${what}`);
}

/** Until the mailer is done with the record's confirmation request: sent, or not to be sent. */
const confirmationSettled = (email: string) =>
  until(async () => {
    const record = await recordOf(email);
    return record?.mailRequestId !== undefined && record.mailedRequestId === record.mailRequestId;
  }, `the confirmation mail of ${email} settled`);

/** Until the mailer is done with the record's leave-link request: sent, or not to be sent. */
const leaveLinkSettled = (email: string) =>
  until(async () => {
    const record = await recordOf(email);
    return (
      record?.leaveMailRequestId !== undefined && record.leaveMailedRequestId === record.leaveMailRequestId
    );
  }, `the leave-link mail of ${email} settled`);

describe('a mailbox that bounced or complained', () => {
  it.each([
    ['bounce', 'Bounce'],
    ['complaint', 'Complaint'],
  ] as const)(
    'after a %s, gets no more mail under any spelling, even once its records are deleted',
    async (reason, typed) => {
      const mailbox = `${reason}@simulator.amazonses.com`;
      expect((await postJoin(runner.url, { email: mailbox, language: 'en' })).status).toBe(201);
      await until(async () => (await recordOf(mailbox))?.mailSuppressed === reason, `the ${reason} recorded`);
      expect(mailsToMailbox(mailbox)).toBe(1);

      // Another spelling signs up: answered as any new signup is, and mailed nothing.
      const again = `${typed}+again@Simulator.AmazonSES.com`;
      const control = await postJoin(runner.url, { email: `control.${reason}@example.nl`, language: 'en' });
      expect(await postJoin(runner.url, { email: again, language: 'en' })).toEqual(control);
      await confirmationSettled(again);

      // A spelling on the list, never mailed and so never marked, asks for its leave link: none goes.
      const listed = `${reason}+listed@simulator.amazonses.com`;
      await onTheList(listed);
      expect((await askForLeaveLink(listed)).status).toBe(202);
      await leaveLinkSettled(listed);

      // Every record of the mailbox deleted (what `forget` does): signing up again still sends nothing.
      for (const email of [mailbox, again, listed]) await deleteRecord(email);
      expect(await recordOf(mailbox)).toBeUndefined();
      expect(await postJoin(runner.url, { email: mailbox, language: 'en' })).toEqual(control);
      await confirmationSettled(mailbox);
      const fresh = `${reason}+fresh@simulator.amazonses.com`;
      expect(await postJoin(runner.url, { email: fresh, language: 'en' })).toEqual(control);
      await confirmationSettled(fresh);

      expect(mailsToMailbox(mailbox)).toBe(1);
      // The records the mailer met carry the mailbox's mark, so the operator's tools show them as such.
      expect((await recordOf(fresh))?.mailSuppressed).toBe(reason);
      // The control, another mailbox, got its mail.
      expect(mailsToMailbox(`control.${reason}@example.nl`)).toBe(1);
    },
  );
});
