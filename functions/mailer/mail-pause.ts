import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import type { WaitlistStore } from '../store/store-client';
import { DAILY_QUOTA_EXCEEDED } from '../telemetry/fault-class';

/**
 * Sending paused for every sender, after SES answered a send with a fault of the account's set-up
 * (fault-class.ts setupFaultOf): until it is fixed every mail would meet it, and none is the person's.
 * The pause is one item in the limit table, beside the mailbox counts (`#pause`: `until`, in ms since the
 * epoch, and `reason`, an error's name), so every process sending through mail-sender.ts (the mailer's
 * instances on AWS, the runner on one machine) stops calling SES; each reads it at most every few
 * seconds. A mail is not sent while it lasts: its message goes back to its queue, still owed. When it
 * ends, the next mail is the probe: if it goes, sending has resumed; if it meets the fault again, the
 * pause is written again.
 */

const PAUSE_KEY = '#pause';
/** How long a pause lasts: a minute, or for the day's quota a quarter of an hour. */
export const PAUSE_SECONDS = 60;
export const QUOTA_PAUSE_SECONDS = 15 * 60;
/** How often one process reads the pause. */
const PAUSE_READ_INTERVAL_MS = 5_000;

/** Why a bulk mail waits: the day's quota is down to what is kept for confirmations (DailyQuota). */
export const DAILY_QUOTA_RESERVE = 'DailyQuotaReserve';

/** A mail not sent because sending is paused: its message waits `seconds` and comes back, still owed. */
export class MailPaused extends Error {
  override name = 'MailPaused';
  constructor(
    readonly reason: string,
    readonly seconds: number,
    /** Whether this mail began the pause (it is logged and counted once, by this mail). */
    readonly began = false,
  ) {
    super(`sending is paused: ${reason}`);
  }
}

export interface MailPause {
  /** Throws MailPaused while sending is paused. */
  check(): Promise<void>;
  /** A send met the set-up fault `reason`: pauses every sender, and returns the MailPaused to throw. */
  begin(reason: string): Promise<MailPaused>;
}

export function mailPause(limits: WaitlistStore, now: () => number = Date.now): MailPause {
  let known = { readAt: Number.NEGATIVE_INFINITY, until: 0, reason: '' };
  return {
    async check() {
      const at = now();
      if (at - known.readAt >= PAUSE_READ_INTERVAL_MS) {
        const { Item } = await limits.client.send(
          new GetCommand({
            TableName: limits.tableName,
            Key: { [MAIL_LIMIT_TABLE_KEY.name]: PAUSE_KEY },
            ConsistentRead: true,
          }),
        );
        known = {
          readAt: at,
          until: typeof Item?.until === 'number' ? Item.until : 0,
          reason: String(Item?.reason ?? ''),
        };
      }
      if (known.until > at) throw new MailPaused(known.reason, Math.ceil((known.until - at) / 1_000));
    },
    async begin(reason) {
      const seconds = reason === DAILY_QUOTA_EXCEEDED ? QUOTA_PAUSE_SECONDS : PAUSE_SECONDS;
      const at = now();
      const until = at + seconds * 1_000;
      try {
        // Unless a pause is on already: sends in flight meet the same fault, and one pause is enough.
        await limits.client.send(
          new PutCommand({
            TableName: limits.tableName,
            Item: {
              [MAIL_LIMIT_TABLE_KEY.name]: PAUSE_KEY,
              until,
              reason,
              [MAIL_LIMIT_EXPIRY_ATTRIBUTE]: Math.ceil(until / 1_000) + PAUSE_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(#key) OR #until <= :now',
            ExpressionAttributeNames: { '#key': MAIL_LIMIT_TABLE_KEY.name, '#until': 'until' },
            ExpressionAttributeValues: { ':now': at },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        known.readAt = Number.NEGATIVE_INFINITY;
        return new MailPaused(reason, seconds);
      }
      known = { readAt: at, until, reason };
      return new MailPaused(reason, seconds, true);
    },
  };
}

/** What is kept of the day's quota for confirmations and leave links: a tenth, at most 500 mails. */
export const quotaReserve = (max24HourSend: number) => Math.min(500, Math.floor(max24HourSend / 10));

/**
 * SES's quota for 24 hours as GetAccount read it (Max24HourSend -1: none). What went since the read is
 * bounded from above without asking anyone: every mailer instance keeps its lane's pace, so no more than
 * `rate` a second went, all lanes together (and never fewer than this process counted). The
 * bulk lane stops once that bound reaches the reserve, and the mailer then reads the account again
 * (handler.ts) for the true figure; so a confirmation still goes the day an announcement spends the quota.
 */
export class DailyQuota {
  #sent = 0;
  readonly #readAt: number;
  constructor(
    readonly max24HourSend: number,
    private readonly sentLast24Hours: number,
    /** Mails a second that all senders together may have sent since the read, at most. */
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#readAt = now();
  }
  /** One more mail accepted by SES. */
  sent(): void {
    this.#sent++;
  }
  /** At most this many mails went in the last 24 hours. */
  get sentAtMost(): number {
    const since = Math.max(this.#sent, Math.floor((this.rate * (this.now() - this.#readAt)) / 1_000));
    return this.sentLast24Hours + since;
  }
  /** Whether only the reserve may be left: a bulk mail could eat into it. */
  get reserveReached(): boolean {
    return (
      this.max24HourSend >= 0 && this.sentAtMost >= this.max24HourSend - quotaReserve(this.max24HourSend)
    );
  }
}
