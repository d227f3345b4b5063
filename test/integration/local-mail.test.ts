/**
 * The runner's stand-in for the table's stream (local/local-mail.ts), on its own: with few places in
 * memory, every mail owed still goes out, once, the rest read back from the table as a stream would; a
 * mail SES refuses for good goes to the dead-letter path, a throttled one waits and goes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { WaitlistRecord } from '#contract/waitlist-table';
import type { MailTransport } from '../../functions/mailer/mail-transport';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalMail, startLocalMail } from '../../local/local-mail';
import { LOCAL_TABLE_NAME, localDocumentClient, localStoreEnvironment } from '../../local/local-store-client';

let store: LocalDynamoDB;
let mail: LocalMail | undefined;
const printed: string[] = [];

beforeAll(async () => {
  store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-mail-data-')));
  await ensureWaitlistTable(store.endpoint);
  // What the mailer reads when it is imported, as the runner sets it.
  Object.assign(process.env, localStoreEnvironment(store.endpoint));
  // The mailer's own lines (the outbox's link lines, its JSON log lines) and the runner's.
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
});

afterEach(async () => {
  await mail?.close();
  mail = undefined;
});

afterAll(async () => {
  await store?.close();
});

/** A pending signup whose mail was asked for a moment ago and not sent yet. */
function owing(email: string): WaitlistRecord {
  const now = new Date().toISOString();
  return {
    email,
    mailbox: mailboxHashOf(email),
    emailAsEntered: email,
    language: 'en',
    createdAt: now,
    consentVersion: 'test',
    status: 'pending',
    expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    // As the waitlist makes them: random, naming nobody (the mail's Message-ID is made from it).
    mailRequestId: randomUUID(),
    mailRequestedAt: now,
    mailsRequested: 1,
  };
}

async function putOwing(emails: string[]): Promise<void> {
  const client = localDocumentClient(store.endpoint);
  try {
    for (const email of emails)
      await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item: owing(email) }));
  } finally {
    client.destroy();
  }
}

/** The signup request the waitlist answered, as the runner hands it on. */
const signup = (email: string) =>
  ({
    headers: { 'content-type': 'application/json' },
    requestContext: { http: { method: 'POST' } },
    body: JSON.stringify({ email, language: 'en' }),
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

async function outboxHolds(outboxDir: string, count: number): Promise<number> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (readdirSync(outboxDir).length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A moment more, so that a mail sent twice would show.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return readdirSync(outboxDir).length;
}

it('sends every owed mail once, though only three fit in memory', async () => {
  const earlier = Array.from({ length: 8 }, (_, index) => `earlier.${index}@example.nl`);
  await putOwing(earlier);
  const outboxDir = mkdtempSync(join(tmpdir(), 'mandje-mail-outbox-'));
  mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName: LOCAL_TABLE_NAME,
    outboxDir,
    siteUrl: 'http://127.0.0.1:3000/',
    print: (line) => printed.push(line),
    maxWaiting: 3,
  });
  // What an earlier run left: read from the table three at a time.
  expect(await outboxHolds(outboxDir, 8)).toBe(8);

  // A burst of new signups, more than fit in memory.
  const burst = Array.from({ length: 7 }, (_, index) => `burst.${index}@example.nl`);
  await putOwing(burst);
  for (const email of burst) mail.afterSignup(signup(email), { statusCode: 201 });

  expect(await outboxHolds(outboxDir, 15)).toBe(15);
  const links = printed.filter((line) => line.startsWith('Confirmation mail in '));
  expect(links).toHaveLength(15);
  expect(printed.join('\n')).not.toContain('@example.nl');
});

it('moves a mail SES refuses for good to the dead-letter path, and sends a throttled one once it may', async () => {
  const refusal = Object.assign(new Error('Illegal address'), {
    name: 'BadRequestException',
    $fault: 'client',
  });
  const throttling = Object.assign(new Error('Maximum sending rate exceeded.'), {
    name: 'ThrottlingException',
    $fault: 'client',
  });
  // SES, refusing one address for good and throttling the other twice: who it accepted mail for.
  const accepted: string[] = [];
  const attempts = new Map<string, number>();
  const transport: MailTransport = {
    async send({ to }) {
      const attempt = (attempts.get(to) ?? 0) + 1;
      attempts.set(to, attempt);
      if (to === 'refused@example.nl') throw refusal;
      if (to === 'slow@example.nl' && attempt <= 2) throw throttling;
      accepted.push(to);
    },
  };
  const people = ['refused@example.nl', 'slow@example.nl'];
  await putOwing(people);
  const dir = mkdtempSync(join(tmpdir(), 'mandje-mail-refusals-'));
  const deadLetterDir = join(dir, 'dead-letters');
  const deadLetters = () => {
    try {
      return readdirSync(deadLetterDir);
    } catch {
      return [];
    }
  };
  mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName: LOCAL_TABLE_NAME,
    outboxDir: join(dir, 'outbox'),
    siteUrl: 'http://127.0.0.1:3000',
    print: (line) => printed.push(line),
    transport,
  });
  for (const email of people) mail.afterSignup(signup(email), { statusCode: 201 });

  for (let waited = 0; accepted.length < 1 || deadLetters().length < 1; waited += 100) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  // The throttled mail went, once.
  expect(accepted).toEqual(['slow@example.nl']);
  // The refused one is kept with why, is owed no more, and is not tried again.
  expect(deadLetters()).toHaveLength(1);
  const deadLetter = JSON.parse(readFileSync(join(deadLetterDir, deadLetters()[0] as string), 'utf8'));
  expect(deadLetter).toMatchObject({
    class: 'confirmation',
    reason: 'refused',
    message: { kind: 'confirmation', key: 'refused@example.nl' },
  });
  const client = localDocumentClient(store.endpoint);
  const { Item: refused } = await client.send(
    new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: 'refused@example.nl' } }),
  );
  client.destroy();
  expect(refused?.mailedRequestId).toBe(refused?.mailRequestId);
  expect(printed.join('\n')).toContain('A confirmation mail could not be sent (refused)');
  expect(printed.join('\n')).not.toContain('refused@example.nl');
}, 60_000);
