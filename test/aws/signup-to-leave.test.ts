import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_PATH } from '#contract/confirmation';
import { deliveryKey, emailKey } from '#contract/email-address';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH, visitsCounterKey } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { type ProductionPath, startProductionPath } from './production-path';

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
});
afterAll(async () => {
  await path?.stop();
});

const join = (email: string, language = 'en') =>
  path.api('POST', WAITLIST_PATH, { body: JSON.stringify({ email, language }) });
/** Every call the functions made is one their role allows. */
const everyCallAllowed = () =>
  expect(path.aws.calls.filter((call) => call.decision !== 'Allowed')).toEqual([]);
const linkIn = (text: string, pathname: string) => {
  const found = text.match(/https:\/\/\S+/g)?.find((url) => new URL(url).pathname === pathname);
  if (!found) throw new Error(`no ${pathname} link in the mail`);
  return new URL(found);
};

describe('one person, signup to leaving, as AWS runs it', () => {
  it('signs up, gets the confirmation mail through SES, confirms, and leaves with one click', async () => {
    expect((await join('sanne@example.nl', 'nl')).statusCode).toBe(201);

    await path.until(
      'the confirmation mail is sent',
      async () => (await path.mailsTo('sanne@example.nl')).length === 1,
    );
    const [mail] = await path.mailsTo('sanne@example.nl');
    const confirm = linkIn(mail?.text ?? '', CONFIRM_PATH);
    const confirmed = await path.api('POST', CONFIRM_PATH, {
      body: JSON.stringify({ token: confirm.searchParams.get('t') }),
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await path.record('sanne@example.nl'))?.status).toBe('confirmed');

    const leave = linkIn(mail?.text ?? '', LEAVE_PATH);
    const left = await path.api('POST', LEAVE_PATH, {
      query: leave.search.slice(1),
      body: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(left.statusCode).toBeLessThan(400);
    expect(await path.record('sanne@example.nl')).toBeUndefined();
    everyCallAllowed();
  });

  it('mails a leave link asked for on the privacy page to a person on the list, and nothing to a stranger', async () => {
    const member = 'fenna@example.nl';
    expect((await join(member, 'nl')).statusCode).toBe(201);
    await path.until('the confirmation mail is sent', async () => (await path.mailsTo(member)).length === 1);

    for (const email of [member, 'stranger@example.nl']) {
      const asked = await path.api('POST', LEAVE_REQUEST_PATH, {
        body: JSON.stringify({ email, language: 'nl' }),
      });
      expect(asked).toMatchObject({ statusCode: 202, body: '{"status":"requested"}' });
    }

    await path.until('the leave-link mail is sent', async () => (await path.mailsTo(member)).length === 2);
    expect(await path.mailsTo('stranger@example.nl')).toEqual([]);
    everyCallAllowed();
  });
});

describe('a mailbox that bounced or complained, as AWS runs it', () => {
  const keyOf = (email: string) => emailKey(email) as string;
  /** The mails SES accepted for any spelling of the mailbox `email` delivers to. */
  const mailsToMailbox = (email: string) =>
    path.aws.ses.sent.filter((mail) =>
      mail.to.some((to) => deliveryKey(keyOf(to.replace(/^.*<|>.*$/g, ''))) === deliveryKey(keyOf(email))),
    ).length;

  it.each([
    ['bounce', 'Bounce'],
    ['complaint', 'Complaint'],
  ] as const)(
    'after a %s from SES’s mailbox simulator, through EventBridge to mail-events, gets no more mail under any spelling',
    async (reason, typed) => {
      const mailbox = `${reason}@simulator.amazonses.com`;
      expect((await join(mailbox)).statusCode).toBe(201);
      await path.until(
        `the ${reason} recorded`,
        async () => (await path.record(keyOf(mailbox)))?.mailSuppressed === reason,
      );

      // Another spelling signs up: answered as any new signup is, and mailed nothing.
      const again = `${typed}+again@Simulator.AmazonSES.com`;
      const control = await join(`control.${reason}@example.nl`);
      expect(await join(again)).toEqual(control);
      await path.until('the control is mailed', () => mailsToMailbox(`control.${reason}@example.nl`) === 1);
      await path.until(`the mailer met ${again}`, async () => {
        const record = await path.record(keyOf(again));
        return record?.mailRequestId !== undefined && record.mailedRequestId === record.mailRequestId;
      });
      expect(mailsToMailbox(mailbox)).toBe(1);
      everyCallAllowed();
    },
  );
});

describe('a visitor, as AWS counts them', () => {
  it('counts a home page loaded again and again as one visitor of the day, each call allowed by the role', async () => {
    const beacon = () => path.api('POST', VISIT_PATH, { query: 'lang=en' });
    for (let load = 0; load < 5; load++) expect((await beacon()).statusCode).toBe(204);

    const day = new Date().toISOString().slice(0, 10);
    expect(await path.record(visitsCounterKey(day))).toEqual({ email: visitsCounterKey(day), en: 1 });
    const visitorCalls = path.aws.calls.filter((call) => call.resource.includes('VisitorTable'));
    expect(new Set(visitorCalls.map((call) => call.action))).toEqual(
      new Set(['dynamodb:GetItem', 'dynamodb:PutItem']),
    );
    everyCallAllowed();
  });
});

describe('a path that is no route as spelled, as AWS runs it', () => {
  it('is refused with 404 by the function, whichever route API Gateway takes it for: no call to the store, no record', async () => {
    const api = [...path.stack.functions.values()].find((fn) => 'VISITOR_TABLE_NAME' in fn.environment);
    const callsBefore = path.aws.calls.length;
    const spellings = [
      '/api/leave/../waitlist',
      '/api/leave/%2e%2e/waitlist',
      '/api/leave/..\\waitlist',
      '/api/visit/../waitlist',
      '/api/waitlist/',
    ];
    for (const [index, spelling] of spellings.entries()) {
      const email = `walk-around.${index}@example.nl`;
      const answer = await path.api('POST', spelling, { body: JSON.stringify({ email, language: 'nl' }) });

      expect(answer, spelling).toMatchObject({ statusCode: 404, body: '{"error":"not_found"}' });
      expect(await path.record(email)).toBeUndefined();
    }
    expect(api).toBeDefined();
    expect(path.aws.calls.slice(callsBefore).filter((call) => call.principal === api?.id)).toEqual([]);
  });
});
