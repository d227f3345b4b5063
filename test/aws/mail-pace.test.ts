import { afterAll, beforeAll, expect, it } from 'vitest';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import {
  type ProductionPath,
  seedConfirmed,
  startAnnouncement,
  startProductionPath,
} from './production-path';

/**
 * SES's pace on the production path: an account that takes 20 mails a second and throttles the 21st, as
 * SES does. Each mailer instance keeps its share of that rate, so a burst of signups is mailed whole with
 * few refusals, and a surge of confirmations goes ahead of an announcement being sent: the announcement
 * leaves room for them, and gives way when SES says "slow down".
 */

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
  // Before any mail: the mailer reads the account once and keeps it for ten minutes.
  path.aws.ses.quota.MaxSendRate = 20;
});
afterAll(async () => {
  await path?.stop();
});

const signUp = (email: string) =>
  path.api('POST', WAITLIST_PATH, { body: JSON.stringify({ email, language: 'en' }) });
/** Where in the order SES accepted mail each of a recipient's mails came. */
const positions = (to: string) =>
  path.aws.ses.sent.flatMap((mail, position) => (mail.to.includes(to) ? [position] : []));

it('mails a burst of 150 signups, each once, at SES’s rate and hardly ever throttled', async () => {
  const people = Array.from({ length: 150 }, (_, index) => `burst${index}@example.com`);
  for (const email of people) expect((await signUp(email)).statusCode).toBe(201);
  await path.until('every signup is mailed', () => people.every((email) => positions(email).length > 0));
  await new Promise((done) => setTimeout(done, 1_000));

  expect(people.filter((email) => positions(email).length !== 1)).toEqual([]);
  // Without a pace the mailer's instances would send as fast as SES answers, and most sends be refused.
  expect(path.aws.ses.throttled).toBeLessThanOrEqual(people.length / 10);
});

it('sends a surge of confirmations ahead of an announcement to 300 people, SES throttling it', async () => {
  const fans = await seedConfirmed(path, 300, 'launch.example');
  const announced = () => fans.filter((email) => positions(email).length > 0).length;
  path.aws.ses.fault = { kind: 'throttle', times: 5 };
  const sending = startAnnouncement(path, 'launch', { rate: Number.POSITIVE_INFINITY });
  await path.until('the announcement is under way', () => announced() >= 40);

  // More than the announcement leaves room for: SES throttles, and the announcement gives way.
  const asked = new Map<string, { sentBefore: number; announcementLeft: number }>();
  for (let index = 0; index < 20; index++) {
    const email = `surge${index}@example.com`;
    asked.set(email, { sentBefore: path.aws.ses.sent.length, announcementLeft: 300 - announced() });
    expect((await signUp(email)).statusCode).toBe(201);
  }
  await path.until('every new signup is mailed', () =>
    [...asked.keys()].every((email) => positions(email).length),
  );
  expect(announced(), 'the announcement was still being sent').toBeLessThan(300);
  // Counted in mails, not time: no confirmation waited behind half the announcement still owed when it was asked.
  const waits = [...asked].map(([email, { sentBefore, announcementLeft }]) => ({
    email,
    mailsBefore: (positions(email)[0] as number) - sentBefore,
    announcementLeft,
  }));
  expect(waits.filter(({ mailsBefore, announcementLeft }) => mailsBefore >= announcementLeft / 2)).toEqual(
    [],
  );

  expect(await sending.done, sending.output()).toBe(0);
  expect(path.aws.ses.fault).toBeUndefined();
  expect(fans.filter((email) => positions(email).length !== 1)).toEqual([]);
  expect(sending.output()).toMatch(/^Sent 300: nl \d+, en \d+/m);
});
