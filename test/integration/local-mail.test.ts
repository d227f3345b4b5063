import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MailTransport } from '../../functions/mailer/mail-transport';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, type LocalDynamoDB, startLocalDynamoDB } from '../../local/local-dynamodb';
import { type LocalMail, startLocalMail } from '../../local/local-mail';
import { LOCAL_TABLE_NAME, localDocumentClient, localStoreEnvironment } from '../../local/local-store-client';

let store: LocalDynamoDB;
let mail: LocalMail | undefined;
const printed: string[] = [];
const print = (line: string) => void printed.push(line);

beforeAll(async () => {
  store = await startLocalDynamoDB(mkdtempSync(join(tmpdir(), 'mandje-mail-data-')));
  await ensureWaitlistTable(store.endpoint);
  // What the mailer reads when it is imported, as the runner sets it.
  Object.assign(process.env, localStoreEnvironment(store.endpoint));
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => print(String(line)));
});
afterEach(async () => {
  await mail?.close();
  mail = undefined;
});
afterAll(() => store?.close());

/** Pending signups whose mails were asked for a moment ago and not sent yet. */
async function putOwing(emails: string[]): Promise<void> {
  const client = localDocumentClient(store.endpoint);
  const now = new Date().toISOString();
  for (const email of emails)
    await client.send(
      new PutCommand({
        TableName: LOCAL_TABLE_NAME,
        Item: {
          ...{ email, mailbox: mailboxHashOf(email), emailAsEntered: email, language: 'en', createdAt: now },
          ...{ consentVersion: 'test', status: 'pending', expiresAt: Math.floor(Date.now() / 1000) + 86_400 },
          ...{ mailRequestId: randomUUID(), mailRequestedAt: now, mailsRequested: 1 },
        },
      }),
    );
  client.destroy();
}

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await pause(50);
  }
  // A moment more, so that a mail sent twice would show.
  await pause(500);
};

const startMail = (outboxDir: string, transport?: MailTransport) =>
  startLocalMail({
    storeEndpoint: store.endpoint,
    tableName: LOCAL_TABLE_NAME,
    siteUrl: 'http://127.0.0.1:3000/',
    outboxDir,
    print,
    transport,
  });

describe('the local mail loop', () => {
  it('sends every owed mail once: what an earlier run left, then a burst of new signups', async () => {
    await putOwing(Array.from({ length: 8 }, (_, index) => `earlier.${index}@example.nl`));
    const outboxDir = mkdtempSync(join(tmpdir(), 'mandje-mail-outbox-'));
    mail = startMail(outboxDir);
    await until(() => readdirSync(outboxDir).length >= 8);
    const burst = Array.from({ length: 7 }, (_, index) => `burst.${index}@example.nl`);
    await putOwing(burst);
    mail.afterSignup();
    await until(() => readdirSync(outboxDir).length >= 15);

    expect(readdirSync(outboxDir)).toHaveLength(15);
    expect(printed.filter((line) => line.startsWith('Confirmation mail in '))).toHaveLength(15);
    expect(printed.join('\n')).not.toContain('@example.nl');
  });

  it('moves a mail SES refuses for good to the dead letters, and sends a throttled one once it may', async () => {
    const sesError = (name: string) => Object.assign(new Error(name), { name, $fault: 'client' });
    // SES, refusing one address for good and throttling the other twice: who it accepted mail for.
    const accepted: string[] = [];
    let throttled = 0;
    const transport: MailTransport = {
      async send({ to }) {
        if (to === 'refused@example.nl') throw sesError('BadRequestException');
        if (to === 'slow@example.nl' && throttled++ < 2) throw sesError('ThrottlingException');
        accepted.push(to);
      },
    };
    const people = ['refused@example.nl', 'slow@example.nl'];
    await putOwing(people);
    const dir = mkdtempSync(join(tmpdir(), 'mandje-mail-refusals-'));
    mail = startMail(join(dir, 'outbox'), transport);
    mail.afterSignup();
    const deadLetters = () =>
      readdirSync(dir).includes('dead-letters') ? readdirSync(join(dir, 'dead-letters')) : [];
    await until(() => accepted.length > 0 && deadLetters().length > 0);

    expect(accepted).toEqual(['slow@example.nl']);
    // The refused one is kept with why, is owed no more, and is not tried again.
    expect(deadLetters()).toHaveLength(1);
    const deadLetter = JSON.parse(
      readFileSync(join(dir, 'dead-letters', deadLetters()[0] as string), 'utf8'),
    );
    expect(deadLetter).toMatchObject({
      class: 'confirmation',
      reason: 'refused',
      message: { key: 'refused@example.nl' },
    });
    const client = localDocumentClient(store.endpoint);
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: 'refused@example.nl' } }),
    );
    client.destroy();
    expect(Item?.mailedRequestId).toBe(Item?.mailRequestId);
    expect(printed.join('\n')).toContain('A confirmation mail could not be sent (refused)');
    expect(printed.join('\n')).not.toContain('refused@example.nl');
  }, 60_000);
});
