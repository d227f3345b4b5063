/** The runner's mail loop on its own: the table as the queue, the outbox, the dead letters, SES's refusals. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect, it, vi } from 'vitest';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import type { MailTransport } from '../../functions/mailer/mail-transport';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { apiGatewayEvent } from '../../local/api-gateway-event';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import { outboxTransport, startLocalMail } from '../../local/local-mail';
import { LOCAL_TABLE_NAME, localDocumentClient, localStoreEnvironment } from '../../local/local-store-client';

const store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-mail-data-')));
await ensureWaitlistTable(store.endpoint);
// What the mailer reads when it is imported, as the runner sets it.
Object.assign(process.env, localStoreEnvironment(store.endpoint));
const client = localDocumentClient(store.endpoint);
const printed: string[] = [];
const print = (line: string) => void printed.push(line);
vi.spyOn(console, 'log').mockImplementation((line: unknown) => print(String(line)));
afterAll(async () => {
  client.destroy();
  await store.close();
});

/** Pending signups whose mails were asked for a moment ago and not sent yet. */
async function putOwing(emails: string[]): Promise<void> {
  const now = new Date().toISOString();
  for (const email of emails) {
    const Item = {
      email,
      mailbox: mailboxHashOf(email),
      emailAsEntered: email,
      language: 'en',
      createdAt: now,
      consentVersion: 'test',
      status: 'pending',
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
      mailRequestId: randomUUID(),
      mailRequestedAt: now,
      mailsRequested: 1,
    };
    await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item }));
  }
}

/** The signup request the waitlist answered 201, as the runner hands it on. */
const signedUp = (email: string) => {
  const body = JSON.stringify({ email, language: 'en' });
  const headers = { 'content-type': 'application/json' };
  return [
    apiGatewayEvent({ method: 'POST', path: WAITLIST_PATH, headers, body }),
    { statusCode: 201 },
  ] as const;
};

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await pause(50);
  }
  // A moment more, so that a mail sent twice would show.
  await pause(500);
};

it('sends each owed mail once, an earlier run’s and new ones, dead-letters what SES refuses, waits out its throttling', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-mail-'));
  const outboxDir = join(dir, 'outbox');
  const sesError = (name: string) => Object.assign(new Error(name), { name, $fault: 'client' });
  // SES, refusing one address for good and throttling another twice, in front of the outbox.
  const outbox = outboxTransport(outboxDir, { print });
  let throttled = 0;
  const transport: MailTransport = {
    async send(mail) {
      if (mail.to === 'refused@example.nl') throw sesError('BadRequestException');
      if (mail.to === 'slow@example.nl' && throttled++ < 2) throw sesError('ThrottlingException');
      await outbox.send(mail);
    },
  };
  await putOwing(Array.from({ length: 8 }, (_, index) => `earlier.${index}@example.nl`));
  const mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName: LOCAL_TABLE_NAME,
    siteUrl: 'http://127.0.0.1:3000/',
    outboxDir,
    print,
    transport,
  });
  await until(() => readdirSync(outboxDir).length >= 8);
  const signups = [
    ...Array.from({ length: 7 }, (_, index) => `new.${index}@example.nl`),
    'refused@example.nl',
  ];
  signups.push('slow@example.nl');
  await putOwing(signups);
  for (const email of signups) mail.afterSignup(...signedUp(email));
  const deadLetters = () =>
    readdirSync(dir).includes('dead-letters') ? readdirSync(join(dir, 'dead-letters')) : [];
  await until(() => readdirSync(outboxDir).length >= 16 && deadLetters().length > 0);
  await mail.close();

  expect(readdirSync(outboxDir)).toHaveLength(16);
  expect(printed.filter((line) => line.startsWith('Confirmation mail in '))).toHaveLength(16);
  // The refused one is kept with why, is owed no more, and is not tried again.
  expect(deadLetters()).toHaveLength(1);
  const deadLetter = JSON.parse(readFileSync(join(dir, 'dead-letters', deadLetters()[0] as string), 'utf8'));
  expect(deadLetter).toMatchObject({
    class: 'confirmation',
    reason: 'refused',
    message: { key: 'refused@example.nl' },
  });
  const read = new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: 'refused@example.nl' } });
  const { Item } = await client.send(read);
  expect(Item?.mailedRequestId).toBe(Item?.mailRequestId);
  expect(printed.join('\n')).toContain('A confirmation mail could not be sent (refused)');
  expect(printed.join('\n')).not.toContain('@example.nl');
}, 60_000);
