/**
 * The runner's mail when SES says no: a mail SES refuses for good goes to the dead-letter path, a
 * throttled one waits and goes. (SES's pace, and confirmations during an announcement: test/aws.)
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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
