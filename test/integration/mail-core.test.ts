/**
 * sendRequestedMail, the mailer's core, against a real store (dynalite in this process): what a mail a
 * person asked for leaves in their record, what goes out (the transport is a list), and the mailbox's budget.
 */

import { BadRequestException } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_WINDOW_HOURS, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { emailKey } from '#contract/email-address';
import type { Locale } from '#contract/locales';
import { MAIL_RESEND_INTERVAL_MINUTES, type WaitlistRecord } from '#contract/waitlist-table';
import { hashOfLinkId, hashOfToken } from '../../functions/confirm/confirmation-token';
import { requestLeaveMail } from '../../functions/leave-link/ask-leave-link';
import { type MailJob, owedRequest } from '../../functions/mailer/mail-job';
import { mayMail, suppressMailbox } from '../../functions/mailer/mail-limit';
import type { OutgoingMail } from '../../functions/mailer/mail-transport';
import { type RequestMailer, sendRequestedMail } from '../../functions/mailer/send-owed-mail';
import { joinWaitlist } from '../../functions/waitlist/join-waitlist';
import { type InProcessStore, newAddress, startInProcessStore } from './in-process-store';

let db: InProcessStore;
let sent: OutgoingMail[];
/** What the transport does with the next mail; by default it takes it. */
let transport: (mail: OutgoingMail) => Promise<void>;

beforeAll(async () => {
  db = await startInProcessStore();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(() => {
  sent = [];
  transport = async () => {};
});

/** The mailer's core on the store; by default its mails go through `transport` into `sent`. */
const mailer = (
  send: RequestMailer['send'] = async (mail) => {
    await transport(mail);
    sent.push(mail);
  },
): RequestMailer => ({
  store: db.store,
  limits: db.limits,
  siteUrl: 'https://mandje.nl',
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'hallo@mandje.nl',
  brandName: 'Mandje',
  send,
});

const T0 = new Date('2026-11-22T12:00:00.000Z');
const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** Signs `person` up (or up again) at `now`; the confirmation job the record then owes, if any. */
async function signUp(person: { email: string; key: string }, now = T0, language: Locale = 'nl') {
  await joinWaitlist(db.store, { ...person, language }, { now });
  const record = (await db.recordOf(person.key)) as WaitlistRecord;
  return { kind: 'confirmation', key: person.key, requestId: record.mailRequestId ?? '' } satisfies MailJob;
}

const mail = (job: MailJob, now = T0) => sendRequestedMail(mailer(), job, () => now);
const tokenOf = (outgoing: OutgoingMail | undefined) =>
  new URL(outgoing?.confirmUrl ?? 'https://missing').searchParams.get('t') ?? '';
/** The link id inside a confirmation token (bytes 4 to 20): which record the link finds. */
const linkIdOf = (token: string) => Buffer.from(token, 'base64url').subarray(4, 20).toString('base64url');

describe('a confirmation mail', () => {
  it('goes to the address as typed (its domain in ASCII), in the signup’s language, and leaves the record owing nothing, its link working', async () => {
    const ann = newAddress('mailed');
    const job = await signUp(ann, T0, 'en');

    expect(await mail(job, minutesAfter(T0, 1))).toEqual({ outcome: 'sent', lagMs: 60_000 });

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: ann.email.replace('@Example.nl', '@example.nl'),
      from: 'hallo@mandje.nl',
      kind: 'confirmation',
    });
    expect(sent[0]?.to).toMatch(/^Mailed\./);
    expect(new URL(sent[0]?.confirmUrl ?? '').searchParams.get('lang')).toBe('en');
    const token = tokenOf(sent[0]);
    const record = await db.recordOf(ann.key);
    expect(record).toMatchObject({
      linkId: linkIdOf(token),
      tokenHash: hashOfLinkId(linkIdOf(token)),
      leaveKey: expect.any(String),
      mailTokenHashes: [hashOfToken(token)],
      mailedRequestId: job.requestId,
    });
    expect(record).not.toHaveProperty('pendingTokenHash');
    expect(owedRequest(record, 'confirmation')).toBeUndefined();
  });

  it('holds its token in flight while it goes, and stays owed when it does not go: the next try sends it, and a link the failed try may have sent keeps working', async () => {
    const ann = newAddress('failed');
    const job = await signUp(ann);
    let whileSending: WaitlistRecord | undefined;
    transport = async () => {
      whileSending = await db.recordOf(ann.key);
      throw Object.assign(new Error('connection reset'), { name: 'ECONNRESET' });
    };

    await expect(mail(job)).rejects.toThrow('connection reset');

    const inFlight = whileSending?.pendingTokenHash;
    expect(inFlight).toEqual(expect.any(String));
    expect(whileSending).not.toHaveProperty('mailTokenHashes');
    expect(owedRequest(await db.recordOf(ann.key), 'confirmation')).toBe(job.requestId);

    transport = async () => {};
    expect(await mail(job)).toMatchObject({ outcome: 'sent' });
    // The connection broke after SES may have taken the mail: its link is kept, with the one sent now.
    expect(await db.recordOf(ann.key)).toMatchObject({
      mailTokenHashes: [inFlight, hashOfToken(tokenOf(sent[0]))],
    });
  });

  it('goes once when the queue hands the same job over twice at the same moment', async () => {
    const ann = newAddress('together');
    const job = await signUp(ann);

    const outcomes = await Promise.all([mail(job), mail(job)]);

    expect(outcomes.map(({ outcome }) => outcome).sort()).toEqual(['sent', 'superseded']);
    expect(sent).toHaveLength(1);
    expect(await db.recordOf(ann.key)).toMatchObject({ mailTokenHashes: [hashOfToken(tokenOf(sent[0]))] });
  });

  it('keeps the record’s link keys in a resend, so every link the person has finds their record', async () => {
    const ann = newAddress('resent');
    await mail(await signUp(ann));
    const first = await db.recordOf(ann.key);
    const later = minutesAfter(T0, MAIL_RESEND_INTERVAL_MINUTES);

    expect(await mail(await signUp(ann, later), later)).toMatchObject({ outcome: 'sent' });

    const record = await db.recordOf(ann.key);
    expect(record).toMatchObject({ linkId: first?.linkId, leaveKey: first?.leaveKey });
    expect(sent.map((outgoing) => linkIdOf(tokenOf(outgoing)))).toEqual([first?.linkId, first?.linkId]);
    expect(record?.mailTokenHashes).toEqual(sent.map((outgoing) => hashOfToken(tokenOf(outgoing))));
  });

  it('sends nothing for a request a newer one replaced; the newer one’s job sends it', async () => {
    const ann = newAddress('replaced');
    const older = await signUp(ann);
    const newer = await signUp(ann, minutesAfter(T0, MAIL_RESEND_INTERVAL_MINUTES));

    expect(await mail(older)).toEqual({ outcome: 'superseded' });
    expect(sent).toHaveLength(0);
    expect(await mail(newer)).toMatchObject({ outcome: 'sent' });
    expect(sent).toHaveLength(1);
  });

  it('sends nothing to a mailbox that bounced or complained, makes it no link, and owes it nothing', async () => {
    const ann = newAddress('bounced');
    const job = await signUp(ann);
    await db.change(ann.key, { mailSuppressed: 'complaint' });

    expect(await mail(job)).toEqual({ outcome: 'suppressed' });

    expect(sent).toHaveLength(0);
    const record = await db.recordOf(ann.key);
    expect(owedRequest(record, 'confirmation')).toBeUndefined();
    expect(record).not.toHaveProperty('linkId');
  });

  it('owes a mail the mail service refuses for good no more, and lists no token of it as mailed', async () => {
    const ann = newAddress('refused');
    const job = await signUp(ann);
    transport = async () => {
      throw new BadRequestException({ message: 'Illegal address', $metadata: {} });
    };

    expect(await mail(job)).toEqual({ outcome: 'refused', errorName: 'BadRequestException' });

    const record = await db.recordOf(ann.key);
    expect(owedRequest(record, 'confirmation')).toBeUndefined();
    expect(record).not.toHaveProperty('mailTokenHashes');
  });
});

describe('a leave-link mail', () => {
  it('goes once, with the same leave key every mail carries, and is then done', async () => {
    const ann = newAddress('leaving');
    await mail(await signUp(ann));
    const { leaveKey } = (await db.recordOf(ann.key)) as WaitlistRecord;
    const later = minutesAfter(T0, 60);
    expect(await requestLeaveMail(db.store, ann.key, { now: later, requestId: 'leave-1' })).toBe('requested');
    const job: MailJob = { kind: 'leave-link', key: ann.key, requestId: 'leave-1' };

    expect(await mail(job, later)).toMatchObject({ outcome: 'sent' });
    expect(await mail(job, later)).toEqual({ outcome: 'superseded' });

    expect(sent.map((outgoing) => outgoing.kind)).toEqual(['confirmation', 'leave-link']);
    const record = await db.recordOf(ann.key);
    expect(record).toMatchObject({ leaveKey, leaveMailedRequestId: 'leave-1' });
    expect(owedRequest(record, 'leave-link')).toBeUndefined();
  });

  const oldSpelling =
    (...why: ('bounce' | 'complaint')[]) =>
    async (k: string) => {
      for (const reason of why) await suppressMailbox(db.limits, k.replace('@', '+old@'), { reason, at: '' });
    };
  it.each([
    ['its record complained', 'complaint', (key: string) => db.change(key, { mailSuppressed: 'complaint' })],
    ['another spelling of its mailbox bounced', 'bounce', oldSpelling('bounce')],
    ['another spelling bounced, then complained', 'complaint', oldSpelling('bounce', 'complaint')],
  ])(
    'goes to no mailbox when %s: not sent, owed no more, the record marked',
    async (_case, reason, silence) => {
      const ann = newAddress('leaving.silenced');
      await mail(await signUp(ann));
      const later = minutesAfter(T0, 60);
      expect(await requestLeaveMail(db.store, ann.key, { now: later, requestId: `leave-${reason}` })).toBe(
        'requested',
      );
      await silence(ann.key);

      expect(await mail({ kind: 'leave-link', key: ann.key, requestId: `leave-${reason}` }, later)).toEqual({
        outcome: 'suppressed',
      });

      expect(sent.map((outgoing) => outgoing.kind)).toEqual(['confirmation']);
      const record = await db.recordOf(ann.key);
      expect(owedRequest(record, 'leave-link')).toBeUndefined();
      expect(record).toMatchObject({ mailSuppressed: reason });
    },
  );
});

describe('the per-mailbox budget', () => {
  it(`sends spellings of one mailbox at most ${MAILS_PER_MAILBOX} mails in ${MAIL_LIMIT_WINDOW_HOURS} hours, confirmations and leave links alike, and the next once the first has left the window`, async () => {
    const spellings = [
      'budget.owner@gmail.com',
      'BudgetOwner+resend@gmail.com',
      'b.udget.owner@googlemail.com',
    ];
    const keys = spellings.map((email) => emailKey(email) as string);
    for (const [index, email] of spellings.entries()) {
      const job = await signUp({ email, key: keys[index] as string }, minutesAfter(T0, index));
      expect(await mail(job, minutesAfter(T0, index))).toMatchObject({ outcome: 'sent' });
    }
    // Asked for by any spelling, a leave link goes to the mailbox's first record by key.
    const first = [...keys].sort()[0] as string;
    const leaveLinkAt = async (requestId: string, now: Date) => {
      expect(await requestLeaveMail(db.store, keys[1] as string, { now, requestId })).toBe('requested');
      return mail({ kind: 'leave-link', key: first, requestId }, now);
    };

    expect(await leaveLinkAt('leave-early', minutesAfter(T0, 60))).toEqual({ outcome: 'limited' });
    // The first mail leaves the window exactly its length after it went (a millisecond less: unit tier).
    const windowEnds = minutesAfter(T0, MAIL_LIMIT_WINDOW_HOURS * 60);
    expect(await leaveLinkAt('leave-later', windowEnds)).toMatchObject({ outcome: 'sent' });
    expect(sent.map(({ kind }) => kind)).toEqual([
      'confirmation',
      'confirmation',
      'confirmation',
      'leave-link',
    ]);
  });

  it('lets only one of several senders racing for the last place take it', async () => {
    const key = emailKey('race.target@gmail.com') as string;
    for (const requestId of ['first', 'second'])
      expect(await mayMail(db.limits, key, requestId, { now: T0 })).toBe(true);

    const racers = Array.from({ length: 6 }, (_, index) =>
      mayMail(db.limits, `race.target+${index}@gmail.com`, `racer-${index}`, { now: T0 }),
    );

    expect((await Promise.all(racers)).filter(Boolean)).toHaveLength(1);
  });
});
