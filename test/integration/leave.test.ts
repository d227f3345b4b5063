import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { emailKey } from '#contract/email-address';
import {
  LEAVE_REQUEST_PATH,
  LEAVE_TOKEN_PLACEHOLDER,
  leaveLink,
  ONE_CLICK_FIELD,
  ONE_CLICK_VALUE,
} from '#contract/leave';
import type { Locale } from '#contract/locales';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { LEFT_COUNTER_KEY, type WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId, newLinkId } from '../../functions/confirm/confirmation-token';
import { leaveToken, newLeaveKey } from '../../functions/leave/leave-token';
import { mailboxHashOf } from '../../functions/store/mailbox';
import {
  LOCAL_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';

let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `leave.${label}.${Date.now()}.${++runId}@example.nl`;
const ONE_CLICK = `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`;
const FORM = 'application/x-www-form-urlencoded';

/** A built site in miniature with the confirmation and leave pages of each language, as the build writes them. */
function siteWithLinkPages(): string {
  const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
  mkdirSync(join(distDir, '.mandje'));
  for (const language of ['nl', 'en']) {
    writeFileSync(
      join(distDir, '.mandje', `confirm.${language}.html`),
      `<!doctype html><html lang="${language}"><body><input type="hidden" name="token" value="${TOKEN_PLACEHOLDER}"></body></html>`,
    );
    writeFileSync(
      join(distDir, '.mandje', `leave.${language}.html`),
      `<!doctype html><html lang="${language}"><body><input type="hidden" name="token" value="${LEAVE_TOKEN_PLACEHOLDER}"></body></html>`,
    );
  }
  return distDir;
}

beforeAll(async () => {
  runner = await startLocalRunner({
    port: 0,
    dataDir: ':memory:',
    distDir: siteWithLinkPages(),
    clientPostsPerMinute: 0,
  });
});

afterAll(async () => {
  await runner?.close();
});

async function withStore<T>(
  work: (client: ReturnType<typeof localDocumentClient>) => Promise<T>,
): Promise<T> {
  const client = localDocumentClient(storeAddressFromEnvironment() as string);
  try {
    return await work(client);
  } finally {
    client.destroy();
  }
}
const recordOf = (email: string) =>
  withStore(async (client) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: emailKey(email) } }),
    );
    return Item as WaitlistRecord | undefined;
  });
const leftCount = () =>
  withStore(async (client) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: LEFT_COUNTER_KEY } }),
    );
    return Number(Item?.count ?? 0);
  });

/**
 * A confirmed person on the list, with the link keys their first mail gave them; their leave link. As a
 * signup makes it, the record carries its mailbox.
 */
async function personOnTheList(
  email: string,
  language: Locale = 'en',
  { extra = {} }: { extra?: Partial<WaitlistRecord> } = {},
): Promise<{ token: string; link: string }> {
  const linkId = newLinkId();
  const leaveKey = newLeaveKey();
  const now = new Date();
  await withStore((client) =>
    client.send(
      new PutCommand({
        TableName: LOCAL_TABLE_NAME,
        Item: {
          email: emailKey(email) as string,
          mailbox: mailboxHashOf(emailKey(email) as string),
          emailAsEntered: email,
          language,
          createdAt: now.toISOString(),
          consentVersion: SIGNUP_NOTE_VERSION,
          status: 'confirmed',
          confirmedAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + 86_400,
          linkId,
          tokenHash: hashOfLinkId(linkId),
          leaveKey,
          ...extra,
        } satisfies WaitlistRecord,
      }),
    ),
  );
  const token = leaveToken(linkId, leaveKey);
  return { token, link: leaveLink(runner.url, language, token) };
}
const unknownToken = () => leaveToken(newLinkId(), newLeaveKey());

/** What a mail client sends for RFC 8058: the one-click body, POSTed to the link itself, from its servers. */
async function oneClick(link: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': FORM, origin: 'https://mail.example' },
    body: ONE_CLICK,
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}
describe('a leave link', () => {
  it('POSTed with the one-click body removes every record of the person’s mailbox, each spelling, and counts one person who left', async () => {
    const stamp = `${Date.now()}.${++runId}`;
    const [linked, ...others] = [
      `Leave.Every.${stamp}+news@gmail.com`,
      `leaveevery${stamp.replace('.', '')}@googlemail.com`,
      `leave.every.${stamp}+shop@gmail.com`,
    ];
    const { link } = await personOnTheList(linked as string);
    for (const email of others) await personOnTheList(email);
    // Another person: outside Gmail the dots make another mailbox.
    const elsewhere = `leave.every.${stamp}@example.nl`;
    await personOnTheList(elsewhere);
    const before = await leftCount();

    expect((await oneClick(link)).status).toBe(200);

    for (const email of [linked, ...others]) expect(await recordOf(email as string), email).toBeUndefined();
    expect(await recordOf(elsewhere)).toMatchObject({ status: 'confirmed' });
    expect(await leftCount()).toBe(before + 1);
  });

  it('counts one person who left, exactly once, when the links of two spellings of their mailbox are pressed at the same moment', async () => {
    const counted = [];
    for (let trial = 0; trial < 8; trial++) {
      const stamp = `${Date.now()}.${++runId}`;
      const spellings = [`race.${stamp}@gmail.com`, `race${stamp.replace('.', '')}+shop@gmail.com`];
      const links = await Promise.all(spellings.map(async (email) => (await personOnTheList(email)).link));
      const before = await leftCount();

      const answers = await Promise.all(links.map(oneClick));

      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      for (const email of spellings) expect(await recordOf(email)).toBeUndefined();
      counted.push((await leftCount()) - before);
    }
    expect(counted).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps a record of the mailbox marked do-not-mail, as its mark, while removing the others', async () => {
    const stamp = `${Date.now()}.${++runId}`;
    const { link } = await personOnTheList(`kept.${stamp}@gmail.com`);
    const bounced = `kept${stamp.replace('.', '')}+old@gmail.com`;
    await personOnTheList(bounced, 'en', { extra: { mailSuppressed: 'bounce' } });

    expect((await oneClick(link)).status).toBe(200);

    expect(await recordOf(`kept.${stamp}@gmail.com`)).toBeUndefined();
    expect(await recordOf(bounced)).toMatchObject({ mailSuppressed: 'bounce' });
  });

  it('answers a used and an unknown token exactly as a real one, and counts neither', async () => {
    const email = newAddress('same');
    const { link } = await personOnTheList(email);
    const before = await leftCount();
    const real = await oneClick(link);
    const count = await leftCount();
    expect([real.status, real.type, count]).toEqual([200, 'text/plain; charset=utf-8', before + 1]);
    expect(await recordOf(email)).toBeUndefined();

    const used = await oneClick(link);
    const unknown = await oneClick(leaveLink(runner.url, 'en', unknownToken()));

    expect(used).toEqual(real);
    expect(unknown).toEqual(real);
    expect(await leftCount()).toBe(count);
  });
});

describe('asking for a leave link on the privacy page', () => {
  const ask = (email: string, form: 'json' | 'form') =>
    fetch(new URL(LEAVE_REQUEST_PATH, runner.url), {
      method: 'POST',
      headers: { 'content-type': form === 'json' ? 'application/json' : FORM },
      body:
        form === 'json'
          ? JSON.stringify({ email, language: 'en' })
          : new URLSearchParams({ email, language: 'en' }).toString(),
      redirect: 'manual',
    }).then(async (response) => ({
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    }));

  it('answers an unknown address exactly as a known one, in either form, and asks a mail only for the known one', async () => {
    const known = newAddress('known');
    await personOnTheList(known);
    const unknown = newAddress('unknown');

    for (const form of ['json', 'form'] as const) {
      const forKnown = await ask(known, form);
      const forUnknown = await ask(unknown, form);
      expect(forUnknown).toEqual(forKnown);
    }
    expect(await ask(known, 'json')).toEqual({ status: 202, location: null, body: '{"status":"requested"}' });
    expect(await ask(unknown, 'form')).toEqual({ status: 303, location: '/en/leave/requested', body: '' });

    expect(await recordOf(known)).toMatchObject({
      leaveMailRequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      leaveMailRequestedAt: expect.any(String),
    });
    expect(await recordOf(unknown)).toBeUndefined();
  });

  it('asks again only after the interval: a second request at once keeps the first', async () => {
    const email = newAddress('again');
    await personOnTheList(email);

    await ask(email, 'json');
    const first = (await recordOf(email))?.leaveMailRequestId;
    await ask(email, 'json');

    expect((await recordOf(email))?.leaveMailRequestId).toBe(first);
  });
});

/** The mails in the outbox to any of `addresses`, as typed. */
const mailsTo = (...addresses: string[]) =>
  readdirSync(runner.outboxDir as string).filter(
    (file) =>
      file.endsWith('.eml') &&
      addresses.some((email) =>
        readFileSync(join(runner.outboxDir as string, file), 'utf8').includes(`To: ${email}\r\n`),
      ),
  );

/** The first leave link in the plain-text part of the mail to `email`, once the mail is in the outbox. */
async function leaveLinkInMailTo(email: string): Promise<string | undefined> {
  const outbox = runner.outboxDir as string;
  for (let waited = 0; waited < 5_000; waited += 50) {
    const raw = readdirSync(outbox)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => readFileSync(join(outbox, file), 'utf8'))
      .find((mail) => mail.includes(`To: ${email}\r\n`));
    if (raw) {
      const part = raw.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '';
      const text = Buffer.from(part.replace(/\r\n/g, ''), 'base64').toString();
      return text.match(/http:\/\/\S+\/api\/leave\?\S+/)?.[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** The privacy page's form, from its script. */
const askForLink = (email: string) =>
  fetch(new URL(LEAVE_REQUEST_PATH, runner.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, language: 'en' }),
  });

// Signing up, confirming and leaving by the mails' links is the production-path tier's (test/aws/signup-to-leave).
describe('the leave link in a real mail', () => {
  it('asked for with any spelling of a mailbox on the list, comes once, with a link that removes every record of that mailbox', async () => {
    const n = `${Date.now()}${++runId}`;
    const joined = `Li.Sa.${n}+mandje@gmail.com`;
    const other = `lisa${n}+shop@gmail.com`;
    const { token } = await personOnTheList(joined);
    await personOnTheList(other);

    for (const asked of [`lisa${n}@gmail.com`, `L.I.S.A${n}@googlemail.com`, other])
      expect((await askForLink(asked)).status).toBe(202);

    // The first record's link (by key), to the mailbox as it joined; one mail, however many spellings asked.
    const link = await leaveLinkInMailTo(joined);
    expect(link).toBe(leaveLink(runner.url, 'en', token));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(joined, other)).toHaveLength(1);
    expect((await oneClick(link as string)).status).toBe(200);
    for (const email of [joined, other]) expect(await recordOf(email), email).toBeUndefined();
  });
});
