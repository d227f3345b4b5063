import { setTimeout as delay } from 'node:timers/promises';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BULK_SHARE, LATE_MAIL_MINUTES, PACE_SHARE } from '#contract/mail-pace';
import { METRIC, type MetricName } from '#contract/metrics';
import { announcementBatch } from '../announce/announcement-batch';
import { recipientMessageSchema } from '../announce/announcement-state';
import { parseJsonStrictly } from '../strict-input';
import { errorNameOf, faultClassOf, isTransient, setupFaultOf } from '../telemetry/fault-class';
import { type MetricLine, writeMetricLine } from '../telemetry/metrics';
import { type MailJob, mailJobSchema } from './mail-job';
import { DAILY_QUOTA_RESERVE, type DailyQuota, MailPaused, mailPause, PAUSE_SECONDS } from './mail-pause';
import type { MailSettings, MailTransport, OutgoingMail } from './mail-transport';
import { type RequestOutcome, sendRequestedMail } from './send-owed-mail';

// Each instance keeps its share of SES's rate in its own memory; SES's "slow down" is the backstop.
class Pace {
  private nextAt = Number.NEGATIVE_INFINITY;
  perSecond = Number.POSITIVE_INFINITY;

  holdFor(ms: number): void {
    this.nextAt = Math.max(this.nextAt, Date.now() + ms);
  }

  /** `signal` ends the wait, and gives the turn back unless a later one was given meanwhile. */
  async turn(signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt);
    const next = at + 1_000 / this.perSecond;
    this.nextAt = next;
    if (at > now)
      await delay(at - now, undefined, { signal }).catch((error: unknown) => {
        if (this.nextAt === next) this.nextAt = at;
        throw error;
      });
  }
}

// Waits out SES's "slow down" (250 ms, doubling up to 4 s), a new turn each time, unless `giveUp()`.
// `turnTaken`: the caller took the first turn. The day's quota spent is thrown at once.
export async function sendUntilNotThrottled(
  send: () => Promise<void>,
  turn: () => Promise<void>,
  { giveUp = (): boolean => false, turnTaken = false } = {},
): Promise<number> {
  let throttled = 0;
  if (!turnTaken) await turn();
  for (;;) {
    try {
      await send();
      return throttled;
    } catch (error) {
      if (faultClassOf(error) !== 'throttled' || setupFaultOf(error) || giveUp()) throw error;
      await delay(Math.min(250 * 2 ** throttled++, 4_000));
      await turn();
    }
  }
}

type DeadLetterReason = 'refused' | 'suppressed' | 'unreadable' | 'failing';

/** SES's rate (Infinity: none), shared by the instances sending each lane at once. */
export interface MailPace {
  rate: number;
  instances: number;
  quota?: DailyQuota;
}

/** Sends in flight at once: each waits for SES, while the pace spaces their starts. */
const CONCURRENCY = 8;
/** Left for writing the counts when the invocation is about to end. */
const TIME_MARGIN_MS = 15_000;
// About a day at the longest wait: a permanent fault is not fixed by waiting, so it is dead-lettered
// (alarmed as refused). Transient faults and pauses keep the message queued, as its age is alarmed.
const MAX_RECEIVES = 100;

// Doubled at each receive, up to SQS's longest visibility timeout.
const retrySeconds = (receiveCount: number, first = 30) =>
  Math.min(900, first * 2 ** Math.max(0, receiveCount - 1));

type Outcome = RequestOutcome | { outcome: 'failed'; errorName: string };

const OUTCOME_METRIC: Partial<Record<Outcome['outcome'], MetricName>> = {
  sent: METRIC.mailSent,
  limited: METRIC.mailLimited,
  suppressed: METRIC.mailSuppressed,
  refused: METRIC.mailRefused,
  failed: METRIC.mailFailed,
};

type Log = Omit<MetricLine, 'service' | 'requestId'>;

/** Never the address, never a token. */
function mailLine(job: MailJob, outcome: Outcome, throttled: number): Log {
  const metric = OUTCOME_METRIC[outcome.outcome];
  const lagMs = outcome.outcome === 'sent' ? outcome.lagMs : undefined;
  const late = lagMs !== undefined && lagMs > LATE_MAIL_MINUTES * 60_000;
  return {
    message: `${job.kind} mail`,
    level: outcome.outcome === 'failed' || outcome.outcome === 'refused' ? 'ERROR' : late ? 'WARN' : 'INFO',
    counts: {
      ...(metric && { [metric]: 1 }),
      ...(throttled > 0 && { [METRIC.mailThrottled]: throttled }),
      ...(late && { [METRIC.mailLate]: 1 }),
    },
    lagMs,
    fields: { outcome: outcome.outcome, errorName: 'errorName' in outcome ? outcome.errorName : undefined },
  };
}

export function mailSender(
  settings: MailSettings & {
    transport: MailTransport;
    pace(): Promise<MailPace>;
    queue: {
      deadLetter(record: SQSRecord, mailClass: string, reason: DeadLetterReason): Promise<void>;
      /** The message comes back after `seconds`: a fault that may pass. */
      retryAfter(record: SQSRecord, seconds: number): Promise<void>;
    };
  },
) {
  const { queue, transport } = settings;
  const pause = mailPause(settings.limits);
  const paces = { priority: new Pace(), bulk: new Pace() };
  // The quota's reserve hold is logged once, when it begins.
  let reserveHeld = false;

  return async function handle(
    event: SQSEvent,
    /** `signal`: on one machine, the caller stopping (no Lambda time runs out there). */
    context: { awsRequestId?: string; getRemainingTimeInMillis(): number; signal?: AbortSignal },
  ): Promise<SQSBatchResponse> {
    const { rate, instances, quota } = await settings.pace();
    const requestId = context.awsRequestId;
    const log = (line: Log) => writeMetricLine({ service: 'mailer', ...line, requestId });
    const timeShort = () => context.getRemainingTimeInMillis() < TIME_MARGIN_MS;
    const failures: string[] = [];
    const counted: string[] = [];
    const receives = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount ?? 1);
    const retry = async (record: SQSRecord, seconds: number) => {
      failures.push(record.messageId);
      // A batch failure either way; without the delay it comes back after the visibility timeout.
      await queue.retryAfter(record, seconds).catch((error: unknown) =>
        log({
          message: 'retry delay not set',
          level: 'WARN',
          counts: {},
          fields: { faultClass: faultClassOf(error), errorName: errorNameOf(error) },
        }),
      );
    };
    // `send` returns how often SES said "slow down"; the bulk lane takes its turn before it claims a person.
    const paced = (lane: 'priority' | 'bulk', bulkRate = Number.POSITIVE_INFINITY) => {
      const pace = paces[lane];
      pace.perSecond =
        (lane === 'priority' ? rate * PACE_SHARE : Math.min(rate * PACE_SHARE * BULK_SHARE, bulkRate)) /
        instances;
      // A wait for a turn ends with the invocation's time: the mail is then tried again from its queue.
      const waitTurn = () => {
        const left = context.getRemainingTimeInMillis() - TIME_MARGIN_MS;
        const timeout = Number.isFinite(left) ? AbortSignal.timeout(Math.max(0, left)) : undefined;
        return pace.turn(AbortSignal.any([timeout, context.signal].filter((signal) => signal !== undefined)));
      };
      const send = async (mail: OutgoingMail) => {
        const throttled = await sendUntilNotThrottled(
          () =>
            transport.send(mail).catch(async (error: unknown) => {
              const reason = setupFaultOf(error);
              if (reason) throw await pause.begin(reason);
              if (lane === 'bulk' && faultClassOf(error) === 'throttled') pace.holdFor(1_000);
              throw error;
            }),
          waitTurn,
          { giveUp: timeShort, turnTaken: lane === 'bulk' },
        );
        quota?.sent();
        return throttled;
      };
      return { waitTurn, send };
    };
    const announcements = announcementBatch(settings, (rate) => paced('bulk', rate), timeShort, log);
    const refuse = async (record: SQSRecord, message: string, kind: string, reason: DeadLetterReason) => {
      log({ message, level: 'ERROR', counts: { [METRIC.mailRefused]: 1 }, fields: { outcome: reason } });
      await queue.deadLetter(record, kind, reason);
    };

    const sendJob = async (record: SQSRecord, job: MailJob): Promise<void> => {
      if (timeShort()) return retry(record, 0);
      let throttled = 0;
      try {
        await pause.check();
        const send = async (mail: OutgoingMail) => {
          throttled = await paced('priority').send(mail);
        };
        const outcome = await sendRequestedMail({ ...settings, send }, job);
        log(mailLine(job, outcome, throttled));
        if (outcome.outcome === 'suppressed' || outcome.outcome === 'refused')
          await queue.deadLetter(record, job.kind, outcome.outcome);
      } catch (error) {
        if (error instanceof MailPaused) throw error;
        const faultClass = faultClassOf(error);
        const errorName = errorNameOf(error);
        if (receives(record) >= MAX_RECEIVES && !isTransient(faultClass)) {
          log(mailLine(job, { outcome: 'refused', errorName }, throttled));
          await queue.deadLetter(record, job.kind, 'failing');
          return;
        }
        log({ ...mailLine(job, { outcome: 'failed', errorName }, throttled), faultClass });
        await retry(record, faultClass === 'throttled' ? 1 : retrySeconds(receives(record)));
      }
    };

    // Priority first: a batch holds one lane's messages, but a test or the runner may mix them.
    const records = event.Records.map((record) => {
      const body = parseJsonStrictly(record.body);
      return { record, body, job: mailJobSchema.safeParse(body) };
    }).sort((a, b) => Number(b.job.success) - Number(a.job.success));
    const sendOne = async ({ record, body, job }: (typeof records)[number]): Promise<void> => {
      if (job.success) return sendJob(record, job.data);
      const recipient = recipientMessageSchema.safeParse(body);
      if (!recipient.success) return refuse(record, 'unreadable message', 'unknown', 'unreadable');
      await pause.check();
      const held = reserveHeld;
      reserveHeld = quota?.reserveReached === true;
      if (reserveHeld) throw new MailPaused(DAILY_QUOTA_RESERVE, PAUSE_SECONDS, !held);
      const outcome = await announcements.send(recipient.data);
      if (outcome === 'refused') await refuse(record, 'announcement mail', 'announcement', 'refused');
      if (outcome === 'retry') await retry(record, timeShort() ? 1 : retrySeconds(receives(record)));
      else counted.push(record.messageId);
    };

    const worker = async () => {
      for (let next = records.shift(); next; next = records.shift()) {
        const { record } = next;
        // A mail not sent for a pause goes back to its queue, still owed, however often it comes back.
        await sendOne(next).catch(async (error: unknown) => {
          if (!(error instanceof MailPaused)) return retry(record, retrySeconds(receives(record)));
          if (error.began)
            log({
              message: 'mail paused',
              level: error.reason === DAILY_QUOTA_RESERVE ? 'WARN' : 'ERROR',
              counts: { [METRIC.mailPaused]: 1 },
              fields: { outcome: 'paused', reason: error.reason },
            });
          await retry(record, Math.max(error.seconds, retrySeconds(receives(record), PAUSE_SECONDS)));
        });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // Uncounted messages go back, to be counted as not owed when they come again.
    await announcements.finish().catch((error: unknown) => {
      log({
        message: 'announcement progress not counted',
        level: 'WARN',
        counts: {},
        faultClass: faultClassOf(error),
        fields: { errorName: errorNameOf(error) },
      });
      failures.push(...counted);
    });
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
