import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { putIf, readItem, type WaitlistStore } from '../store/store-client';
import { DAILY_QUOTA_EXCEEDED } from '../telemetry/fault-class';

// Every mail would meet a fault of the account's set-up, so every sender pauses; the next mail is the probe.

const PAUSE_KEY = '#pause';
export const PAUSE_SECONDS = 60;

/** Why a bulk mail waits: the day's quota is down to what is kept for confirmations. */
export const DAILY_QUOTA_RESERVE = 'DailyQuotaReserve';

/** Its message waits `seconds` and comes back, still owed. */
export class MailPaused extends Error {
  override name = 'MailPaused';
  constructor(
    readonly reason: string,
    readonly seconds: number,
    /** This mail began the pause: it is logged and counted once. */
    readonly began = false,
  ) {
    super(`sending is paused: ${reason}`);
  }
}

export function mailPause(limits: WaitlistStore) {
  let known = { readAt: Number.NEGATIVE_INFINITY, until: 0, reason: '' };
  return {
    async check(): Promise<void> {
      const at = Date.now();
      if (at - known.readAt >= 5_000) {
        const Item = await readItem(limits, { [MAIL_LIMIT_TABLE_KEY.name]: PAUSE_KEY });
        known = { readAt: at, until: Number(Item?.until) || 0, reason: String(Item?.reason ?? '') };
      }
      if (known.until > at) throw new MailPaused(known.reason, Math.ceil((known.until - at) / 1_000));
    },
    /** Pauses every sender for the set-up fault `reason`; returns the MailPaused to throw. */
    async begin(reason: string): Promise<MailPaused> {
      const seconds = reason === DAILY_QUOTA_EXCEEDED ? 15 * 60 : PAUSE_SECONDS;
      const at = Date.now();
      const until = at + seconds * 1_000;
      // Unless a pause is on already: sends in flight meet the same fault.
      const put = await putIf(limits, {
        Item: {
          [MAIL_LIMIT_TABLE_KEY.name]: PAUSE_KEY,
          until,
          reason,
          [MAIL_LIMIT_EXPIRY_ATTRIBUTE]: Math.ceil(until / 1_000) + PAUSE_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(#key) OR #until <= :now',
        ExpressionAttributeNames: { '#key': MAIL_LIMIT_TABLE_KEY.name, '#until': 'until' },
        ExpressionAttributeValues: { ':now': at },
      });
      if (put) known = { readAt: at, until, reason };
      else known.readAt = Number.NEGATIVE_INFINITY;
      return new MailPaused(reason, seconds, put);
    },
  };
}

export const quotaReserve = (max24HourSend: number) => Math.min(500, Math.floor(max24HourSend / 10));

// SES's quota for 24 hours as read (-1: none). What went since is bounded without asking, by `rate` (what all
// senders together may send a second): once the bound reaches the reserve, the bulk lane stops and the mailer
// reads the account again.
export function dailyQuota(max24HourSend: number, sentLast24Hours: number, rate: number, now = Date.now) {
  const readAt = now();
  let sentSinceRead = 0;
  return {
    sent(): void {
      sentSinceRead++;
    },
    get reserveReached(): boolean {
      const since = Math.max(sentSinceRead, Math.floor((rate * (now() - readAt)) / 1_000));
      return max24HourSend >= 0 && sentLast24Hours + since >= max24HourSend - quotaReserve(max24HourSend);
    },
  };
}
export type DailyQuota = ReturnType<typeof dailyQuota>;
