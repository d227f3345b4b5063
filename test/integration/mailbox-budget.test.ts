/**
 * One budget per mailbox over a true sliding 24 hours, against a real store (dynalite in this process):
 * confirmations, resends and leave-link requests to spellings of one Gmail mailbox, asked for through the
 * real cores (joinWaitlist, requestLeaveMail) and mailed by the mailer's (sendRequestedMail, with the real
 * mail-limit.ts), the clock injected and moved across 24-hour boundaries. At most MAILS_PER_MAILBOX mails
 * in any 24 hours, and a place comes free exactly when a mail leaves the window.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_WINDOW_HOURS, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { emailKey } from '#contract/email-address';
import { requestLeaveMail } from '../../functions/leave-link/ask-leave-link';
import { type MailJob, owedRequest } from '../../functions/mailer/mail-job';
import { mayMail } from '../../functions/mailer/mail-limit';
import type { OutgoingMail } from '../../functions/mailer/mail-transport';
import { type RequestMailer, sendRequestedMail } from '../../functions/mailer/send-owed-mail';
import { joinWaitlist } from '../../functions/waitlist/join-waitlist';
import { type InProcessStore, startInProcessStore } from './in-process-store';

let db: InProcessStore;

beforeAll(async () => {
  db = await startInProcessStore();
});

afterAll(async () => {
  await db?.close();
});

const MINUTE = 60_000;
const WINDOW = MAIL_LIMIT_WINDOW_HOURS * 60 * MINUTE;
const T0 = new Date('2026-11-22T08:00:00.000Z').getTime();

/** The mailer's core, its clock `now`; each mail that goes is noted with the time it went. */
function mailerAt(sent: { at: number; kind: OutgoingMail['kind'] }[], now: () => number) {
  const mailer: RequestMailer = {
    store: db.store,
    limits: db.limits,
    siteUrl: 'https://mandje.nl',
    mailFrom: 'hallo@mandje.nl',
    contactEmail: 'hallo@mandje.nl',
    brandName: 'Mandje',
    async send(mail) {
      sent.push({ at: now(), kind: mail.kind });
    },
  };
  return (job: MailJob) => sendRequestedMail(mailer, job, () => new Date(now()));
}

/** The most mails of `times` (sorted) inside any window of MAIL_LIMIT_WINDOW_HOURS. */
function mostInAnyWindow(times: number[]): number {
  return Math.max(
    0,
    ...times.map((start) => times.filter((at) => at >= start && at < start + WINDOW).length),
  );
}

describe('the per-mailbox budget', () => {
  it(`sends at most ${MAILS_PER_MAILBOX} mails in any ${MAIL_LIMIT_WINDOW_HOURS} hours to spellings of one mailbox, confirmations, resends and leave links alike, and exactly those a sliding window lets through`, async () => {
    const spellings = [
      'budget.owner@gmail.com',
      'BudgetOwner+resend@gmail.com',
      'b.udget.owner@googlemail.com',
      'budgetowner+leaving@gmail.com',
    ];
    const sent: { at: number; kind: OutgoingMail['kind'] }[] = [];
    let now = T0;
    const mail = mailerAt(sent, () => now);
    /** The times of the mails asked for (a job made), each let through or not by the model of the rule. */
    const asked: number[] = [];

    // Every 50 minutes for three days: a signup (or a signup again, which asks for a resend) and a request
    // for a leave link in turn, each spelling in turn, so every 24-hour boundary has requests on both sides.
    for (let step = 0; now < T0 + 3 * WINDOW; step++, now += 50 * MINUTE) {
      const email = spellings[Math.floor(step / 2) % spellings.length] as string;
      const key = emailKey(email) as string;
      let job: MailJob | undefined;
      if (step % 2 === 0) {
        await joinWaitlist(db.store, { email, key, language: 'nl' }, { now: new Date(now) });
        const requestId = owedRequest(await db.recordOf(key), 'confirmation');
        if (requestId) job = { kind: 'confirmation', key, requestId };
      } else {
        const requestId = randomUUID();
        if ((await requestLeaveMail(db.store, key, { now: new Date(now), requestId })) === 'requested') {
          // The mailbox's first record asks for it, whichever spelling asked.
          const keys = spellings.map((spelling) => emailKey(spelling) as string);
          const records = await Promise.all(keys.map((each) => db.recordOf(each)));
          const marked = records.find((record) => record?.leaveMailRequestId === requestId);
          job = { kind: 'leave-link', key: marked?.email ?? key, requestId };
        }
      }
      if (!job) continue;
      asked.push(now);
      const outcome = await mail(job);
      expect(['sent', 'limited']).toContain(outcome.outcome);
    }

    const times = sent.map(({ at }) => at);
    expect(mostInAnyWindow(times)).toBe(MAILS_PER_MAILBOX);
    // Both kinds were counted in the one budget.
    expect(new Set(sent.map(({ kind }) => kind))).toEqual(new Set(['confirmation', 'leave-link']));
    // The rule's model: a mail goes when fewer than MAILS_PER_MAILBOX went in the window before it.
    const expected: number[] = [];
    for (const at of asked)
      if (expected.filter((earlier) => earlier > at - WINDOW).length < MAILS_PER_MAILBOX) expected.push(at);
    expect(times).toEqual(expected);
  });

  it('lets only one of several senders racing for the last place take it', async () => {
    const key = emailKey('race.target@gmail.com') as string;
    const now = new Date(T0);
    for (const requestId of ['first', 'second'])
      expect(await mayMail(db.limits, key, requestId, { now })).toBe(true);

    const racers = Array.from({ length: 6 }, (_, index) =>
      mayMail(db.limits, `race.target+${index}@gmail.com`, `racer-${index}`, { now }),
    );

    expect((await Promise.all(racers)).filter(Boolean)).toHaveLength(1);
  });
});
