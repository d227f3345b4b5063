/**
 * joinWaitlist against a real store (dynalite in this process): what a signup, and a second signup of the
 * same mailbox, leave in the person's record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '#contract/locales';
import type { SignupSource } from '#contract/signup-source';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { MAIL_RESEND_INTERVAL_MINUTES, MAX_CONFIRMATION_MAILS, PENDING_DAYS } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { joinWaitlist } from '../../functions/waitlist/join-waitlist';
import { type InProcessStore, newAddress, startInProcessStore } from './in-process-store';

let db: InProcessStore;

beforeAll(async () => {
  db = await startInProcessStore();
});

afterAll(() => db?.close());

const T0 = new Date('2026-11-22T12:00:00.000Z');
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);
const DAY_SECONDS = 86_400;

const join = (
  entry: { email: string; key: string },
  { language = 'nl', now = T0, source }: { language?: Locale; now?: Date; source?: SignupSource } = {},
) => joinWaitlist(db.store, { ...entry, language, ...(source ? { source } : {}) }, { now });

describe('a signup with confirmation by mail', () => {
  it('keeps a new address pending for PENDING_DAYS, as typed and by its key, with one confirmation mail asked for', async () => {
    const ann = newAddress('new');

    expect(await join(ann, { language: 'en', source: { utmSource: 'flyer' } })).toBe('joined');

    expect(await db.recordOf(ann.key)).toEqual({
      email: ann.key,
      mailbox: mailboxHashOf(ann.key),
      emailAsEntered: ann.email,
      language: 'en',
      createdAt: T0.toISOString(),
      consentVersion: SIGNUP_NOTE_VERSION,
      source: { utmSource: 'flyer' },
      status: 'pending',
      expiresAt: seconds(T0) + PENDING_DAYS * DAY_SECONDS,
      mailRequestId: expect.any(String),
      mailRequestedAt: T0.toISOString(),
      mailsRequested: 1,
    });
  });

  it('asks again for the mail after the interval, in the first signup’s language and with its source, and keeps the record PENDING_DAYS from then', async () => {
    const ann = newAddress('resend');
    await join(ann, { language: 'en', source: { utmSource: 'flyer' } });
    const first = await db.recordOf(ann.key);
    const later = minutesAfter(T0, MAIL_RESEND_INTERVAL_MINUTES);

    const again = await join(ann, { language: 'nl', now: later, source: { utmSource: 'newsletter' } });

    expect(again).toBe('already_registered');
    const record = await db.recordOf(ann.key);
    expect(record).toEqual({
      ...first,
      mailRequestId: expect.any(String),
      mailRequestedAt: later.toISOString(),
      mailsRequested: 2,
      expiresAt: seconds(later) + PENDING_DAYS * DAY_SECONDS,
    });
    expect(record?.mailRequestId).not.toBe(first?.mailRequestId);
  });

  it(`asks for no more than ${MAX_CONFIRMATION_MAILS} confirmation mails in all`, async () => {
    const ann = newAddress('often');
    let now = T0;
    await join(ann, { now });
    for (let mail = 2; mail <= MAX_CONFIRMATION_MAILS + 2; mail++) {
      now = minutesAfter(now, MAIL_RESEND_INTERVAL_MINUTES);
      expect(await join(ann, { now })).toBe('already_registered');
    }

    expect(await db.recordOf(ann.key)).toMatchObject({ mailsRequested: MAX_CONFIRMATION_MAILS });
  });

  it('starts afresh for a pending record past its days that the time to live has not deleted yet', async () => {
    const ann = newAddress('lapsed');
    await join(ann, { language: 'en' });
    await db.change(ann.key, { mailsRequested: MAX_CONFIRMATION_MAILS });
    const later = minutesAfter(T0, (PENDING_DAYS * DAY_SECONDS) / 60 + 1);

    expect(await join(ann, { language: 'nl', now: later })).toBe('joined');

    expect(await db.recordOf(ann.key)).toMatchObject({
      status: 'pending',
      language: 'nl',
      createdAt: later.toISOString(),
      mailsRequested: 1,
      expiresAt: seconds(later) + PENDING_DAYS * DAY_SECONDS,
    });
  });

  // Within the interval; confirmed; a mailbox that bounced or complained, not even past its days.
  it.each([
    ['a second signup within the resend interval', undefined, MAIL_RESEND_INTERVAL_MINUTES - 1],
    ['a confirmed record', { status: 'confirmed', confirmedAt: T0.toISOString() }, 60],
    ['a bounced mailbox after the interval', { mailSuppressed: 'bounce' }, MAIL_RESEND_INTERVAL_MINUTES],
    ['a bounced mailbox past its days', { mailSuppressed: 'bounce' }, (PENDING_DAYS * DAY_SECONDS) / 60 + 1],
  ] as const)(
    'answers %s "already registered", asks for no mail and changes nothing',
    async (label, change, minutes) => {
      const ann = newAddress(label.replaceAll(' ', '-'));
      await join(ann);
      if (change) await db.change(ann.key, change);
      const before = await db.recordOf(ann.key);

      expect(await join(ann, { now: minutesAfter(T0, minutes) })).toBe('already_registered');
      expect(await db.recordOf(ann.key)).toEqual(before);
    },
  );
});
