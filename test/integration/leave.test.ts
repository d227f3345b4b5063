import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKey } from '#contract/email-address';
import { LEAVE_REQUEST_PATH, leaveLink, ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
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
import { createSiteFixture } from './site-fixture';

let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `leave.${label}.${Date.now()}.${++runId}@example.nl`;
const ONE_CLICK = `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`;
const FORM = 'application/x-www-form-urlencoded';

let store: ReturnType<typeof localDocumentClient>;

beforeAll(async () => {
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: createSiteFixture().distDir });
  store = localDocumentClient(storeAddressFromEnvironment() as string);
});

afterAll(async () => {
  store?.destroy();
  await runner?.close();
});
const itemOf = async (email: string) =>
  (await store.send(new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email } }))).Item;
const recordOf = async (email: string) =>
  (await itemOf(emailKey(email) as string)) as WaitlistRecord | undefined;
const leftCount = async () => Number((await itemOf(LEFT_COUNTER_KEY))?.count ?? 0);

/** A confirmed person on the list, with their mailbox and the link keys their first mail gave them. */
async function personOnTheList(email: string, extra: Partial<WaitlistRecord> = {}) {
  const linkId = newLinkId();
  const leaveKey = newLeaveKey();
  const now = new Date();
  await store.send(
    new PutCommand({
      TableName: LOCAL_TABLE_NAME,
      Item: {
        email: emailKey(email) as string,
        mailbox: mailboxHashOf(emailKey(email) as string),
        emailAsEntered: email,
        language: 'en',
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
  );
  const token = leaveToken(linkId, leaveKey);
  return { token, link: leaveLink(runner.url, 'en', token) };
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
  it('POSTed with the one-click body removes every record of the person’s mailbox, each spelling, keeps a do-not-mail one, and counts one person who left; used again, or unknown, answers alike and counts nothing', async () => {
    const stamp = `${Date.now()}.${++runId}`;
    const [linked, ...others] = [
      `Leave.Every.${stamp}+news@gmail.com`,
      `leaveevery${stamp.replace('.', '')}@googlemail.com`,
      `leave.every.${stamp}+shop@gmail.com`,
    ];
    const { link } = await personOnTheList(linked as string);
    for (const email of others) await personOnTheList(email);
    const bounced = `leaveevery${stamp.replace('.', '')}+old@gmail.com`;
    await personOnTheList(bounced, { mailSuppressed: 'bounce' });
    // Another person: outside Gmail the dots make another mailbox.
    const elsewhere = `leave.every.${stamp}@example.nl`;
    await personOnTheList(elsewhere);
    const before = await leftCount();

    const real = await oneClick(link);
    expect([real.status, real.type, await leftCount()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      before + 1,
    ]);
    for (const email of [linked, ...others]) expect(await recordOf(email as string), email).toBeUndefined();
    expect(await recordOf(bounced)).toMatchObject({ mailSuppressed: 'bounce' });
    expect(await recordOf(elsewhere)).toMatchObject({ status: 'confirmed' });

    expect(await oneClick(link)).toEqual(real);
    expect(await oneClick(leaveLink(runner.url, 'en', unknownToken()))).toEqual(real);
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
});

/** The privacy page's form, sent as its script or as a plain form sends it. */
async function ask(email: string, form: 'json' | 'form') {
  const fields = { email, language: 'en' };
  const [type, body] =
    form === 'json' ? ['application/json', JSON.stringify(fields)] : [FORM, `${new URLSearchParams(fields)}`];
  const response = await fetch(new URL(LEAVE_REQUEST_PATH, runner.url), {
    method: 'POST',
    headers: { 'content-type': type },
    body,
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

describe('asking for a leave link on the privacy page', () => {
  it('answers an unknown address exactly as a known one, in either form; asks a mail only for the known one, and not again at once', async () => {
    const [known, unknown] = [newAddress('known'), newAddress('unknown')];
    await personOnTheList(known);

    const forKnown = await ask(known, 'json');
    const first = (await recordOf(known))?.leaveMailRequestId;
    expect(forKnown).toEqual({ status: 202, location: null, body: '{"status":"requested"}' });
    expect(await ask(unknown, 'json')).toEqual(forKnown);
    const byForm = { status: 303, location: '/en/leave/requested', body: '' };
    expect([await ask(known, 'form'), await ask(unknown, 'form')]).toEqual([byForm, byForm]);

    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect((await recordOf(known))?.leaveMailRequestId).toBe(first);
    expect(await recordOf(unknown)).toBeUndefined();
  });
});

/** The mails in the outbox to any of `addresses`, as typed. */
const mailsTo = (...addresses: string[]) =>
  readdirSync(runner.outboxDir)
    .filter((file) => file.endsWith('.eml'))
    .map((file) => readFileSync(join(runner.outboxDir, file), 'utf8'))
    .filter((raw) => addresses.some((email) => raw.includes(`To: ${email}\r\n`)));

/** The first leave link in the plain-text part of the mail to `email`, once the mail is in the outbox. */
async function leaveLinkInMailTo(email: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5_000 && mailsTo(email).length === 0; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const part = mailsTo(email)[0]?.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1];
  const text = Buffer.from(part?.split('\r\n--')[0]?.replace(/\r\n/g, '') ?? '', 'base64').toString();
  return text.match(/http:\/\/\S+\/api\/leave\?\S+/)?.[0];
}

// Signing up, confirming and leaving by the mails' links is the production-path tier's (test/aws/signup-to-leave).
describe('the leave link in a real mail', () => {
  it('asked for with any spelling of a mailbox on the list, comes once, with a link that removes every record of that mailbox', async () => {
    const n = `${Date.now()}${++runId}`;
    const joined = `Li.Sa.${n}+mandje@gmail.com`;
    const other = `lisa${n}+shop@gmail.com`;
    const { token } = await personOnTheList(joined);
    await personOnTheList(other);

    for (const asked of [`lisa${n}@gmail.com`, `L.I.S.A${n}@googlemail.com`, other])
      expect((await ask(asked, 'json')).status).toBe(202);

    // The first record's link (by key), to the mailbox as it joined; one mail, however many spellings asked.
    const link = await leaveLinkInMailTo(joined);
    expect(link).toBe(leaveLink(runner.url, 'en', token));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(joined, other)).toHaveLength(1);
    expect((await oneClick(link as string)).status).toBe(200);
    for (const email of [joined, other]) expect(await recordOf(email), email).toBeUndefined();
  });
});
