/**
 * confirmSignup against a real store (dynalite in this process, with the token index): a person signs up,
 * gets the mail the real mailer core sends, and presses its button. What each press answers, and what it
 * leaves in the record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { PENDING_DAYS, RETENTION_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { confirmSignup } from '../../functions/confirm/confirm-signup';
import { newConfirmationToken } from '../../functions/confirm/confirmation-token';
import { sendRequestedMail } from '../../functions/mailer/send-owed-mail';
import { joinWaitlist } from '../../functions/waitlist/join-waitlist';
import { type InProcessStore, newAddress, startInProcessStore } from './in-process-store';

let db: InProcessStore;

beforeAll(async () => {
  db = await startInProcessStore();
});

afterAll(() => db?.close());

const T0 = new Date('2026-11-22T12:00:00.000Z');
const DAY_MINUTES = 24 * 60;
const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** Signs `person` up (again) at `now`, mails the confirmation at `mailedAt`; the token in its link. */
async function signUpAndMail(person: { email: string; key: string }, now = T0, mailedAt = now) {
  await joinWaitlist(db.store, { ...person, language: 'nl' }, { now });
  const record = (await db.recordOf(person.key)) as WaitlistRecord;
  let confirmUrl: string | undefined;
  const outcome = await sendRequestedMail(
    {
      store: db.store,
      limits: db.limits,
      siteUrl: 'https://mandje.nl',
      mailFrom: 'hallo@mandje.nl',
      contactEmail: 'hallo@mandje.nl',
      brandName: 'Mandje',
      async send(mail) {
        confirmUrl = mail.confirmUrl;
      },
    },
    { kind: 'confirmation', key: person.key, requestId: record.mailRequestId ?? '' },
    () => mailedAt,
  );
  expect(outcome).toMatchObject({ outcome: 'sent' });
  return new URL(confirmUrl ?? 'https://missing').searchParams.get('t') ?? '';
}

const press = (token: string, now: Date) => confirmSignup(db.store, token, { now });

describe('pressing the button of a confirmation mail', () => {
  it('confirms the pending signup: counted, kept RETENTION_DAYS after joining, with the version it agreed to, no mail owed', async () => {
    const ann = newAddress('confirm');
    const token = await signUpAndMail(ann);
    const mailed = await db.recordOf(ann.key);
    const pressedAt = minutesAfter(T0, 30);

    expect(await press(token, pressedAt)).toBe('confirmed');

    const record = await db.recordOf(ann.key);
    expect(record).toMatchObject({
      status: 'confirmed',
      confirmedAt: pressedAt.toISOString(),
      confirmedConsentVersion: SIGNUP_NOTE_VERSION,
      expiresAt: seconds(T0) + RETENTION_DAYS * 86_400,
      // The leave link in every mail keeps working.
      linkId: mailed?.linkId,
      leaveKey: mailed?.leaveKey,
    });
    for (const request of ['mailRequestId', 'mailRequestedAt', 'mailsRequested', 'mailedRequestId'])
      expect(record).not.toHaveProperty(request);
  });

  it('says "already confirmed" when the same link is pressed again, also past its days, and changes nothing', async () => {
    const ann = newAddress('again');
    const token = await signUpAndMail(ann);
    await press(token, minutesAfter(T0, 5));
    const confirmed = await db.recordOf(ann.key);

    expect(await press(token, minutesAfter(T0, 10))).toBe('already-confirmed');
    expect(await press(token, minutesAfter(T0, 30 * DAY_MINUTES))).toBe('already-confirmed');

    expect(await db.recordOf(ann.key)).toEqual(confirmed);
  });

  it('confirms once when three presses of one link arrive at once: the others hear "already confirmed"', async () => {
    const token = await signUpAndMail(newAddress('at-once'));
    const pressedAt = minutesAfter(T0, 5);

    const results = await Promise.all([1, 2, 3].map(() => press(token, pressedAt)));

    expect(results.sort()).toEqual(['already-confirmed', 'already-confirmed', 'confirmed']);
  });

  it('confirms with the link of an earlier mail after a resend: every link the person was sent works', async () => {
    const ann = newAddress('earlier');
    const first = await signUpAndMail(ann);
    const second = await signUpAndMail(ann, minutesAfter(T0, 60));

    expect(await press(first, minutesAfter(T0, 90))).toBe('confirmed');
    expect(await press(second, minutesAfter(T0, 91))).toBe('already-confirmed');
  });

  it('says "expired" to a link past its PENDING_DAYS and confirms nothing, while a newer link still confirms', async () => {
    const ann = newAddress('old-link');
    const old = await signUpAndMail(ann);
    // A signup again the day before the first link runs out: a new mail, and the record kept longer.
    const newer = await signUpAndMail(ann, minutesAfter(T0, (PENDING_DAYS - 1) * DAY_MINUTES));
    const pressedAt = minutesAfter(T0, (PENDING_DAYS + 1) * DAY_MINUTES);

    expect(await press(old, pressedAt)).toBe('expired');
    expect(await db.recordOf(ann.key)).toMatchObject({ status: 'pending' });

    expect(await press(newer, pressedAt)).toBe('confirmed');
  });

  it('says "expired" for a signup past its days, even with a link still in its own (the mail went late)', async () => {
    const ann = newAddress('lapsed');
    const token = await signUpAndMail(ann, T0, minutesAfter(T0, 60));

    expect(await press(token, minutesAfter(T0, PENDING_DAYS * DAY_MINUTES + 30))).toBe('expired');

    expect(await db.recordOf(ann.key)).toMatchObject({ status: 'pending' });
  });

  it('says "unknown" to a link with the record’s link id but a secret it never mailed, to the link of a mailbox that bounced or complained since, and to a token no record mailed; "invalid" to what is no token', async () => {
    const ann = newAddress('forged');
    const token = await signUpAndMail(ann);
    const { linkId } = (await db.recordOf(ann.key)) as WaitlistRecord;
    const forged = newConfirmationToken(linkId as string, T0).token;

    expect(await press(forged, minutesAfter(T0, 5))).toBe('unknown');
    await db.change(ann.key, { mailSuppressed: 'complaint' });
    expect(await press(token, minutesAfter(T0, 5))).toBe('unknown');

    expect(await db.recordOf(ann.key)).toMatchObject({ status: 'pending' });
    expect(await press(newConfirmationToken('AAAAAAAAAAAAAAAAAAAAAA', T0).token, T0)).toBe('unknown');
    expect(await press('not-a-token', T0)).toBe('invalid');
  });
});
