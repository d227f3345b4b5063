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
 * few refusals, and a surge of confirmations leaves within seconds while an announcement is being sent:
 * the announcement leaves room for them, and gives way when SES says "slow down".
 */

const RATE = 20;

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
  // Before any mail: the mailer reads the account once and keeps it for ten minutes.
  path.aws.ses.quota.MaxSendRate = RATE;
});
afterAll(async () => {
  await path?.stop();
});

const signUp = (email: string) =>
  path.api('POST', WAITLIST_PATH, { body: JSON.stringify({ email, language: 'en' }) });
/** When SES accepted each recipient's mails. */
const acceptedAt = (to: string) =>
  path.aws.ses.sent.filter((mail) => mail.to.includes(to)).map(({ at }) => at);

it('mails a burst of 150 signups, each once, at SES’s rate and hardly ever throttled', async () => {
  const people = Array.from({ length: 150 }, (_, index) => `burst${index}@example.com`);
  for (const email of people) expect((await signUp(email)).statusCode).toBe(201);
  await path.until('every signup is mailed', () => people.every((email) => acceptedAt(email).length > 0));
  await new Promise((done) => setTimeout(done, 1_000));

  expect(people.filter((email) => acceptedAt(email).length !== 1)).toEqual([]);
  // Without a pace the mailer's instances would send as fast as SES answers, and most sends be refused.
  expect(path.aws.ses.throttled).toBeLessThanOrEqual(people.length / 10);
});

it('sends a surge of confirmations within 5 s while an announcement to 300 people goes, SES throttling it', async () => {
  const fans = await seedConfirmed(path, 300, 'launch.example');
  const announced = () => fans.filter((email) => acceptedAt(email).length > 0).length;
  path.aws.ses.fault = { kind: 'throttle', times: 5 };
  const sending = startAnnouncement(path, 'launch', { rate: Number.POSITIVE_INFINITY });
  await path.until('the announcement is under way', () => announced() >= 40);

  // More than the announcement leaves room for: SES throttles, and the announcement gives way.
  const askedAt = new Map<string, number>();
  for (let index = 0; index < 20; index++) {
    const email = `surge${index}@example.com`;
    askedAt.set(email, Date.now());
    expect((await signUp(email)).statusCode).toBe(201);
  }
  await path.until('every new signup is mailed', () =>
    [...askedAt.keys()].every((email) => acceptedAt(email).length > 0),
  );
  expect(announced(), 'the announcement was still being sent').toBeLessThan(300);
  const waits = [...askedAt].map(([email, at]) => (acceptedAt(email)[0] as number) - at);
  expect(Math.max(...waits)).toBeLessThan(5_000);

  expect(await sending.done, sending.output()).toBe(0);
  expect(path.aws.ses.fault).toBeUndefined();
  expect(fans.filter((email) => acceptedAt(email).length !== 1)).toEqual([]);
  expect(sending.output()).toMatch(/^Sent 300: nl \d+, en \d+/m);
});
