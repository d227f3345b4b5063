/**
 * SES's mailbox simulator, offline, through the runner: a mail to bounce@ or complaint@ is written, the
 * event SES would publish reaches the real mail-events function, and no further mail goes to that
 * mailbox, even when it asks again. success@, which SES delivers, gets its second mail: the control.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  process.env.SIGNUP_RATE_LIMIT = '0';
  runner = await startLocalRunner({
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'mandje-simulator-')),
    distDir: mkdtempSync(join(tmpdir(), 'mandje-dist-')),
  });
});

afterAll(async () => {
  await runner?.close();
});

async function record(email: string): Promise<WaitlistRecord | undefined> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string, { maxAttempts: 1 });
  try {
    return (await client.send(new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email } }))).Item as
      | WaitlistRecord
      | undefined;
  } finally {
    client.destroy();
  }
}

/** Lets the next signup of `email` ask for a mail again, as if the resend interval had passed. */
async function allowResend(email: string): Promise<void> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string, { maxAttempts: 1 });
  try {
    await client.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE_NAME,
        Key: { email },
        UpdateExpression: 'SET mailRequestedAt = :long',
        ExpressionAttributeValues: { ':long': new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString() },
      }),
    );
  } finally {
    client.destroy();
  }
}

/** The mails in the outbox addressed to `email`. */
const mailsTo = (email: string) =>
  readdirSync(runner.outboxDir as string).filter((name) =>
    new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(
      readFileSync(join(runner.outboxDir as string, name), 'utf8'),
    ),
  );

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (await check()) return;
    await delay(100);
  }
  throw new Error(`waited in vain for ${what}`);
}

/** Signs up, then asks again once the first mail is out and its events are handled. */
async function signUpTwice(email: string): Promise<void> {
  expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(201);
  await until(() => mailsTo(email).length === 1, 'the first mail');
  await until(async () => {
    const current = await record(email);
    return current?.mailedRequestId === current?.mailRequestId;
  }, 'the first mail marked sent');
  // SES's events come after the mail: give them their moment.
  await delay(500);
  await allowResend(email);
  await postJoin(runner.url, { email, language: 'en' });
  // Long enough for a second mail to be written, were it sent.
  await delay(1_500);
}

describe("SES's mailbox simulator on the runner", () => {
  it.each([
    ['bounce', 'bounce'],
    ['complaint', 'complaint'],
  ])('records %s@ as %s and sends that mailbox no further mail', async (mailbox, suppression) => {
    const email = `${mailbox}@simulator.amazonses.com`;
    await signUpTwice(email);

    expect((await record(email))?.mailSuppressed).toBe(suppression);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends success@, which SES delivers, its second mail', async () => {
    const email = 'success@simulator.amazonses.com';
    await signUpTwice(email);

    expect((await record(email))?.mailSuppressed).toBeUndefined();
    expect(mailsTo(email)).toHaveLength(2);
  });
});
