/**
 * One paced mail path, on one machine as on AWS: with SES's maximum send rate set (SES_MAX_SEND_RATE), a
 * burst of signups is mailed whole, at no more than that rate, none twice; confirmations go ahead of an
 * announcement being sent; a mail SES refuses for good goes to the dead-letter path, a throttled one
 * waits and goes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { type MailTransport, outboxTransport } from '../../functions/mailer/mail-transport';
import { ensureWaitlistTable, type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalMail, startLocalMail } from '../../local/local-mail';
import { LOCAL_TABLE_NAME, localDocumentClient, localStoreEnvironment } from '../../local/local-store-client';
import { announce } from '../../operator/announce-command';

const RATE = 20;

let dataDir: string;
let store: LocalDynamoDB;
let mail: LocalMail | undefined;
const printed: string[] = [];

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mandje-pace-'));
  store = await startLocalDynamoDB(join(dataDir, 'store'));
  await ensureWaitlistTable(store.endpoint);
  Object.assign(process.env, localStoreEnvironment(store.endpoint));
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
});

afterEach(async () => {
  await mail?.close();
  mail = undefined;
  await store?.close();
  vi.restoreAllMocks();
  delete process.env.SES_MAX_SEND_RATE;
});

const outboxDir = () => join(dataDir, 'outbox');

/** A pending signup whose confirmation mail was asked for just now. */
const pending = (email: string, index: number): WaitlistRecord => {
  const now = new Date().toISOString();
  return {
    email,
    emailAsEntered: email,
    language: index % 2 === 0 ? 'nl' : 'en',
    createdAt: now,
    consentVersion: 'test',
    status: 'pending',
    expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    mailRequestId: `request-${email.replace(/[^a-z0-9]/g, '-')}`,
    mailRequestedAt: now,
    mailsRequested: 1,
  };
};

const confirmedPerson = (email: string, index: number) => ({
  email,
  emailAsEntered: email,
  language: index % 2 === 0 ? 'nl' : 'en',
  status: 'confirmed',
  createdAt: '2026-01-01T00:00:00.000Z',
  consentVersion: 'test',
  expiresAt: 4_000_000_000,
});

async function put(items: object[]): Promise<void> {
  const client = localDocumentClient(store.endpoint);
  try {
    for (let start = 0; start < items.length; start += 25)
      await client.send(
        new BatchWriteCommand({
          RequestItems: {
            [LOCAL_TABLE_NAME]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
          },
        }),
      );
  } finally {
    client.destroy();
  }
}

async function record(email: string): Promise<WaitlistRecord | undefined> {
  const client = localDocumentClient(store.endpoint);
  try {
    return (await client.send(new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email } })))
      .Item as WaitlistRecord;
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

/** The outbox, recording when each mail was accepted (by Message-ID); throwing where `fail` says. */
function recordingTransport(fail: (to: string, attempt: number) => Error | undefined = () => undefined) {
  const outbox = outboxTransport(outboxDir(), { print: () => {} });
  const acceptedAt = new Map<string, number>();
  const attempts = new Map<string, number>();
  const transport: MailTransport = {
    async send(outgoing) {
      const attempt = (attempts.get(outgoing.to) ?? 0) + 1;
      attempts.set(outgoing.to, attempt);
      const error = fail(outgoing.to, attempt);
      if (error) throw error;
      // Accepted now, as SES would take it; written then.
      const at = Date.now();
      await outbox.send(outgoing);
      acceptedAt.set(outgoing.messageId, at);
    },
  };
  return { transport, acceptedAt };
}

function startMail(transport: MailTransport): LocalMail {
  mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName: LOCAL_TABLE_NAME,
    outboxDir: outboxDir(),
    siteUrl: () => 'http://127.0.0.1:3000',
    mailFrom: 'hallo@mandje.nl',
    contactEmail: 'hallo@mandje.nl',
    print: (line) => printed.push(line),
    maxSendRate: RATE,
    transport,
  });
  return mail;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await delay(100);
  }
}

/** The most moments in any one second. */
function busiestSecond(moments: number[]): number {
  const sorted = [...moments].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while ((sorted[last] as number) - (sorted[first] as number) >= 1_000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

it('mails a burst of 1,000 signups whole, at no more than SES_MAX_SEND_RATE, none dropped, none twice', async () => {
  const emails = Array.from({ length: 1_000 }, (_, index) => `burst.${index}@example.nl`);
  await put(emails.map(pending));
  const { transport, acceptedAt } = recordingTransport();
  const localMail = startMail(transport);
  for (const email of emails) localMail.afterSignup(signup(email), { statusCode: 201 });

  await until(() => acceptedAt.size >= 1_000, 120_000);
  // A moment more, so that a mail sent twice would show.
  await delay(500);

  const moments = [...acceptedAt.values()];
  expect(acceptedAt.size).toBe(1_000);
  expect(readdirSync(outboxDir()).filter((name) => name.endsWith('.eml'))).toHaveLength(1_000);
  expect(busiestSecond(moments)).toBeLessThanOrEqual(RATE);
  // Near the rate: 1,000 mails at 20 a second take 50 seconds, and not much more.
  const seconds = (Math.max(...moments) - Math.min(...moments)) / 1_000;
  expect(seconds).toBeGreaterThanOrEqual(999 / RATE - 1);
  expect(1_000 / seconds).toBeGreaterThanOrEqual(RATE * 0.9);
  // Every record is marked sent for its request: nothing is owed any more.
  for (const email of emails.slice(0, 50)) {
    const stored = await record(email);
    expect(stored?.mailedRequestId).toBe(stored?.mailRequestId);
  }
}, 180_000);

it('sends new signups’ confirmations within seconds while an announcement to 1,000 people is being sent', async () => {
  process.env.SES_MAX_SEND_RATE = String(RATE);
  const people = Array.from({ length: 1_000 }, (_, index) =>
    confirmedPerson(`fan.${index}@example.nl`, index),
  );
  await put(people);
  const { transport, acceptedAt } = recordingTransport();
  const localMail = startMail(transport);

  // The operator's tool, sending the announcement through the same store, at the same pace.
  const folder = mkdtempSync(join(tmpdir(), 'mandje-launch-'));
  mkdirSync(join(folder, 'launch'));
  writeFileSync(join(folder, 'launch', 'nl.md'), 'Subject: Mandje is er!\n\nHoi,\n\nMandje is klaar.\n');
  writeFileSync(join(folder, 'launch', 'en.md'), 'Subject: Mandje is here!\n\nHello,\n\nMandje is ready.\n');
  const client = localDocumentClient(store.endpoint);
  const output: string[] = [];
  const sending = announce(
    { client, tableName: LOCAL_TABLE_NAME, where: 'test', close: async () => {} },
    { kind: 'local', dataDir },
    { folder: join(folder, 'launch'), send: true },
    {
      out: (text) => output.push(text),
      signal: new AbortController().signal,
      progress: { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream,
    },
  );

  // Once it is under way: twenty signups, one every quarter of a second.
  await until(() => readdirSync(outboxDir()).filter((name) => name.endsWith('.eml')).length >= 60, 30_000);
  const askedAt = new Map<string, number>();
  for (let index = 0; index < 20; index++) {
    const email = `new.${index}@example.nl`;
    const signedUp = pending(email, index);
    await put([signedUp]);
    askedAt.set(`${signedUp.mailRequestId}@mandje.nl`, Date.now());
    localMail.afterSignup(signup(email), { statusCode: 201 });
    await delay(250);
  }
  await until(() => [...askedAt.keys()].every((id) => acceptedAt.has(id)), 30_000);
  const waits = [...askedAt].map(([id, at]) => (acceptedAt.get(id) as number) - at);
  expect(Math.max(...waits)).toBeLessThan(3_000);

  expect(await sending).toBe(0);
  client.destroy();
  expect(output.join('')).toMatch(/^Sent 1000: nl 500, en 500/m);
  const announcements = readdirSync(outboxDir()).filter((name) => name.startsWith('launch.'));
  expect(announcements).toHaveLength(1_000);
}, 180_000);

it('moves a mail SES refuses for good to the dead-letter path, and sends a throttled one once it may', async () => {
  const refusal = Object.assign(new Error('Illegal address'), {
    name: 'BadRequestException',
    $fault: 'client',
  });
  const throttling = Object.assign(new Error('Maximum sending rate exceeded.'), {
    name: 'ThrottlingException',
    $fault: 'client',
  });
  const { transport, acceptedAt } = recordingTransport((to, attempt) =>
    to === 'refused@example.nl' ? refusal : to === 'slow@example.nl' && attempt <= 2 ? throttling : undefined,
  );
  await put([pending('refused@example.nl', 0), pending('slow@example.nl', 1)]);
  const localMail = startMail(transport);
  for (const email of ['refused@example.nl', 'slow@example.nl'])
    localMail.afterSignup(signup(email), { statusCode: 201 });

  await until(
    () => acceptedAt.size >= 1 && readdirSyncSafe(join(dataDir, 'dead-letters')).length >= 1,
    20_000,
  );
  await delay(1_000);

  // The throttled mail went, once.
  expect([...acceptedAt.keys()]).toEqual(['request-slow-example-nl@mandje.nl']);
  // The refused one is kept with why, is owed no more, and is not tried again.
  const deadLetters = readdirSyncSafe(join(dataDir, 'dead-letters'));
  expect(deadLetters).toHaveLength(1);
  const deadLetter = JSON.parse(
    readFileSync(join(dataDir, 'dead-letters', deadLetters[0] as string), 'utf8'),
  );
  expect(deadLetter).toMatchObject({
    class: 'confirmation',
    reason: 'refused',
    message: { kind: 'confirmation', key: 'refused@example.nl' },
  });
  const refused = await record('refused@example.nl');
  expect(refused?.mailedRequestId).toBe(refused?.mailRequestId);
  expect(printed.join('\n')).toContain('A confirmation mail could not be sent (refused)');
  expect(printed.join('\n')).not.toContain('refused@example.nl');
}, 60_000);

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
