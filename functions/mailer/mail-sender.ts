import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BULK_SHARE, LATE_MAIL_MINUTES, PACE_SHARE } from '#contract/mail-pace';
import { METRIC, type MetricName } from '#contract/metrics';
import { announcementBatch } from '../announce/announcement-batch';
import { recipientMessageSchema } from '../announce/announcement-state';
import {
  errorNameOf,
  type FaultClass,
  faultClassOf,
  isTransient,
  setupFaultOf,
} from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';
import { type MailJob, mailJobSchema } from './mail-job';
import { DAILY_QUOTA_RESERVE, type DailyQuota, MailPaused, mailPause, PAUSE_SECONDS } from './mail-pause';
import type { MailSettings, MailTransport, OutgoingMail } from './mail-transport';
import { Pace, sendUntilNotThrottled } from './pace';
import { type RequestOutcome, sendRequestedMail } from './request-mail';

/**
 * The one sender of every mail: the priority lane's confirmation and leave-link mails, and the bulk lane's
 * announcement, each at its share of SES's rate (MailPace), kept in this instance (pace.ts). What has not
 * gone yet stays on its queue: a mail SES throttles waits and goes again; a fault that may pass (the store
 * away, SES failing) returns the message to its queue, to be tried again later and later; a fault of the
 * account's set-up pauses all sending (mail-pause.ts), and the messages wait on their queues meanwhile, as
 * do the announcement's once the day's quota is down to what is kept for confirmations. A message is
 * deleted only once its mail went, or it needs none. Only a mail that can never be sent (SES refused it for
 * good, the mailbox bounced or complained, a message that is none of ours) goes to the dead-letter queue,
 * with why. A mail that leaves more than LATE_MAIL_MINUTES after it was asked for is still sent, and
 * counted late.
 *
 * The queue itself is the caller's: SQS on AWS (handler.ts); on one machine the table's own records for the
 * runner's mails, and the operator's tool for an announcement (local/local-mail.ts).
 */

/** The priority lane's mails (confirmations, leave links) and the bulk lane's (the announcement). */
type Lane = 'priority' | 'bulk';

/** Why a message can never be sent. */
export type DeadLetterReason = 'refused' | 'suppressed' | 'unreadable' | 'failing';

export interface MailQueue {
  /** Moves the message to the dead-letter queue, with its class and why. */
  deadLetter(record: SQSRecord, mailClass: string, reason: DeadLetterReason): Promise<void>;
  /** The message comes back after `seconds`: a fault that may pass. */
  retryAfter(record: SQSRecord, seconds: number): Promise<void>;
}

export interface MailSenderSettings extends MailSettings {
  transport: MailTransport;
  /** The pace, and on AWS the day's quota: read from SES's account (handler.ts, every ten minutes). */
  pace(): Promise<MailPace>;
  queue: MailQueue;
  now?: () => Date;
}

/**
 * SES's maximum send rate, and how many instances send each lane at once (the event sources' maximum
 * concurrency): each instance paces the priority lane at its share of the whole rate, and the bulk lane at
 * its share of BULK_SHARE of it (or of the announcement's own rate, when lower). An announcement under way
 * thus leaves headroom for confirmations. Where a surge of them needs more, both lanes together ask more
 * than SES's rate; SES says "slow down", and the bulk lane that hears it holds back for a second while
 * confirmations go on: the announcement gives way.
 */
export interface MailPace {
  /** Mails per second (Infinity: none, as on one machine). */
  rate: number;
  instances: number;
  /** SES's quota for 24 hours; none on one machine. */
  quota?: DailyQuota;
}

/** How long the bulk lane of an instance holds back after SES said "slow down" to it. */
const BULK_GIVES_WAY_MS = 1_000;
/** Sends in flight at once: each waits for SES, while the pace spaces their starts. */
const CONCURRENCY = 8;
/** Left for writing the counts when the invocation is about to end. */
export const TIME_MARGIN_MS = 15_000;
/** A message that failed comes back after this long, doubled at each receive, up to SQS's longest wait. */
const RETRY_SECONDS = { first: 30, max: 900 };
/** A message not sent for a pause: from a minute, doubled at each receive, at least until the pause ends. */
const PAUSED_FIRST_SECONDS = 60;
/**
 * A job that has failed this often (about a day at the longest wait) with a permanent fault (a bug, a
 * permission or resource missing) is not fixed by waiting: it goes to the dead-letter queue, counted with
 * the refusals (alarmed), instead of cycling unseen until SQS's retention ends. A fault that may pass (SES
 * or the store failing for now) keeps it on its queue, where its age sets off MailDelayed: the receive count
 * also grows while a pause holds a message, so a long pause must not make the first such fault its last.
 * A pause itself never sends a message there: it waits for the fix (MailPaused alarmed).
 */
export const MAX_RECEIVES = 100;

export function retrySeconds(receiveCount: number, first = RETRY_SECONDS.first): number {
  return Math.min(RETRY_SECONDS.max, first * 2 ** Math.max(0, receiveCount - 1));
}

const OUTCOME_METRIC: Record<RequestOutcome['outcome'], MetricName | undefined> = {
  sent: METRIC.mailSent,
  superseded: undefined,
  limited: METRIC.mailLimited,
  suppressed: METRIC.mailSuppressed,
  refused: METRIC.mailRefused,
};

/**
 * One line per mail of the priority lane, with its metrics: sent (late or not, with its lag and the times
 * SES throttled it), held back, refused, or failed (with the fault's class). Never the address, never a token.
 */
function logMail(
  job: MailJob,
  outcome: RequestOutcome | { outcome: 'failed'; fault: { faultClass: FaultClass; errorName: string } },
  throttled: number,
  requestId: string | undefined,
): void {
  const counts: Partial<Record<MetricName, number>> = {};
  const metric = outcome.outcome === 'failed' ? METRIC.mailFailed : OUTCOME_METRIC[outcome.outcome];
  if (metric) counts[metric] = 1;
  if (throttled > 0) counts[METRIC.mailThrottled] = throttled;
  const lagMs = outcome.outcome === 'sent' ? outcome.lagMs : undefined;
  const late = lagMs !== undefined && lagMs > LATE_MAIL_MINUTES * 60_000;
  if (late) counts[METRIC.mailLate] = 1;
  writeMetricLine({
    service: 'mailer',
    message: job.kind === 'confirmation' ? 'confirmation mail' : 'leave-link mail',
    level: outcome.outcome === 'failed' || outcome.outcome === 'refused' ? 'ERROR' : late ? 'WARN' : 'INFO',
    counts,
    lagMs,
    faultClass: outcome.outcome === 'failed' ? outcome.fault.faultClass : undefined,
    fields: {
      outcome: outcome.outcome,
      errorName:
        outcome.outcome === 'failed'
          ? outcome.fault.errorName
          : outcome.outcome === 'refused'
            ? outcome.errorName
            : undefined,
    },
    requestId,
  });
}

function parseBody(record: SQSRecord): unknown {
  try {
    return JSON.parse(record.body);
  } catch {
    return undefined;
  }
}

export function mailSender(settings: MailSenderSettings) {
  const { queue, transport } = settings;
  const now = settings.now ?? (() => new Date());
  const pause = mailPause(settings.limits, () => now().getTime());
  /** Each lane's pace in this instance, kept across invocations, at the lane's rate of the moment. */
  const paces = { priority: new Pace(Number.POSITIVE_INFINITY), bulk: new Pace(Number.POSITIVE_INFINITY) };
  /** Whether this process holds the bulk lane back for the quota's reserve: counted once when it starts. */
  let reserveHeld = false;

  return async function handle(
    event: SQSEvent,
    /** `signal`: on one machine, the caller stopping (no Lambda time runs out there). */
    context: { awsRequestId?: string; getRemainingTimeInMillis(): number; signal?: AbortSignal },
  ): Promise<SQSBatchResponse> {
    const { rate, instances, quota } = await settings.pace();
    const requestId = context.awsRequestId;
    const timeShort = () => context.getRemainingTimeInMillis() < TIME_MARGIN_MS;
    const failures: string[] = [];
    /** The bulk lane's messages done in this batch: their outcomes are in the counts finish() writes. */
    const counted: string[] = [];
    const retry = async (record: SQSRecord, seconds: number) => {
      failures.push(record.messageId);
      // Reported through the batch's failures either way; without the new delay the message comes back
      // after the queue's visibility timeout instead, so this failure is logged, not thrown.
      await queue.retryAfter(record, seconds).catch((error: unknown) =>
        writeMetricLine({
          service: 'mailer',
          message: 'retry delay not set',
          level: 'WARN',
          counts: {},
          fields: { faultClass: faultClassOf(error), errorName: errorNameOf(error) },
          requestId,
        }),
      );
    };
    const receives = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount ?? 1);
    /** Throws MailPaused while sending is paused, and for the bulk lane while only the reserve is left. */
    const mayStart = async (lane: Lane) => {
      await pause.check();
      if (lane !== 'bulk') return;
      if (!quota?.reserveReached) {
        reserveHeld = false;
        return;
      }
      const began = !reserveHeld;
      reserveHeld = true;
      // A minute, doubled at each receive: the account is read again meanwhile (handler.ts), and a bound
      // that only looked spent lets the mail go at its next turn.
      throw new MailPaused(DAILY_QUOTA_RESERVE, PAUSE_SECONDS, began);
    };
    /** A mail not sent for a pause: back to its queue, still owed, however often it comes back. */
    const paused = async (record: SQSRecord, held: MailPaused) => {
      if (held.began)
        writeMetricLine({
          service: 'mailer',
          message: 'mail paused',
          level: held.reason === DAILY_QUOTA_RESERVE ? 'WARN' : 'ERROR',
          counts: { [METRIC.mailPaused]: 1 },
          fields: { outcome: 'paused', reason: held.reason },
          requestId,
        });
      await retry(record, Math.max(held.seconds, retrySeconds(receives(record), PAUSED_FIRST_SECONDS)));
    };
    const paced = (lane: Lane, bulkRate = Number.POSITIVE_INFINITY, count?: (n: number) => void) => {
      const laneRate =
        lane === 'priority' ? rate * PACE_SHARE : Math.min(rate * PACE_SHARE * BULK_SHARE, bulkRate);
      const pace = paces[lane];
      pace.perSecond = laneRate / instances;
      const waitTurn = () => {
        // A wait for a turn ends with the invocation's time: the mail is then tried again from its queue.
        const left = context.getRemainingTimeInMillis() - TIME_MARGIN_MS;
        const timeout = Number.isFinite(left) ? AbortSignal.timeout(Math.max(0, left)) : undefined;
        const signal =
          timeout && context.signal
            ? AbortSignal.any([timeout, context.signal])
            : (timeout ?? context.signal);
        return pace.turn(signal);
      };
      const send = async (mail: OutgoingMail, { turnTaken = false } = {}): Promise<void> => {
        const { throttled } = await sendUntilNotThrottled(
          () =>
            transport.send(mail).catch(async (error: unknown) => {
              const reason = setupFaultOf(error);
              if (reason) throw await pause.begin(reason);
              // Both lanes together may ask more than SES's rate: the announcement gives way for a moment.
              if (lane === 'bulk' && faultClassOf(error) === 'throttled') pace.holdFor(BULK_GIVES_WAY_MS);
              throw error;
            }),
          waitTurn,
          { giveUp: timeShort, turnTaken },
        );
        quota?.sent();
        count?.(throttled);
      };
      return { waitTurn, send };
    };
    const announcements = announcementBatch(
      { ...settings, now },
      (rate) => {
        const { waitTurn, send } = paced('bulk', rate);
        return { waitTurn, send: (mail) => send(mail, { turnTaken: true }) };
      },
      timeShort,
    );

    /** A message that can never be sent: logged and counted as refused, and moved to the dead letters. */
    const refuse = async (
      record: SQSRecord,
      message: string,
      mailClass: string,
      reason: 'refused' | 'unreadable',
    ) => {
      writeMetricLine({
        service: 'mailer',
        message,
        level: 'ERROR',
        counts: { [METRIC.mailRefused]: 1 },
        fields: { outcome: reason },
        requestId,
      });
      await queue.deadLetter(record, mailClass, reason);
    };

    const one = async (record: SQSRecord): Promise<void> => {
      try {
        await sendOne(record);
      } catch (error) {
        if (!(error instanceof MailPaused)) throw error;
        await paused(record, error);
      }
    };

    const sendOne = async (record: SQSRecord): Promise<void> => {
      const body = parseBody(record);
      const job = mailJobSchema.safeParse(body);
      if (job.success) {
        if (timeShort()) return retry(record, 0);
        let throttled = 0;
        try {
          await mayStart('priority');
          const outcome = await sendRequestedMail(
            {
              ...settings,
              send: paced('priority', undefined, (n) => {
                throttled = n;
              }).send,
            },
            job.data,
            now,
          );
          logMail(job.data, outcome, throttled, requestId);
          if (outcome.outcome === 'suppressed' || outcome.outcome === 'refused')
            await queue.deadLetter(record, job.data.kind, outcome.outcome);
        } catch (error) {
          if (error instanceof MailPaused) throw error;
          const fault = { faultClass: faultClassOf(error), errorName: errorNameOf(error) };
          if (receives(record) >= MAX_RECEIVES && !isTransient(fault.faultClass)) {
            logMail(job.data, { outcome: 'refused', errorName: fault.errorName }, throttled, requestId);
            await queue.deadLetter(record, job.data.kind, 'failing');
            return;
          }
          logMail(job.data, { outcome: 'failed', fault }, throttled, requestId);
          // Throttled past the invocation's time: back soon; anything else later and later.
          await retry(record, fault.faultClass === 'throttled' ? 1 : retrySeconds(receives(record)));
        }
        return;
      }
      const recipient = recipientMessageSchema.safeParse(body);
      if (recipient.success) {
        await mayStart('bulk');
        const outcome = await announcements.send(record, recipient.data, requestId);
        if (outcome === 'refused') await refuse(record, 'announcement mail', 'announcement', 'refused');
        if (outcome === 'retry') await retry(record, timeShort() ? 1 : retrySeconds(receives(record)));
        else counted.push(record.messageId);
        return;
      }
      // None of ours: it can never succeed. Counted with the refusals: a mail that will never go.
      await refuse(record, 'unreadable message', 'unknown', 'unreadable');
    };

    // Priority first: a batch holds one lane's messages, but a test or the runner may mix them.
    const records = [...event.Records].sort(
      (a, b) =>
        Number(mailJobSchema.safeParse(parseBody(b)).success) -
        Number(mailJobSchema.safeParse(parseBody(a)).success),
    );
    const inFlight = new Set<Promise<void>>();
    for (const record of records) {
      while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      const running = one(record).catch(() => retry(record, retrySeconds(receives(record))));
      const tracked = running.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    await Promise.all(inFlight);
    // The counts only: every mail of the batch is already sent or back on its queue. Counts not written
    // would leave the operator's tool waiting for them: the messages go back, and are counted when they
    // come again (as not owed any more, their mails sent).
    await announcements.finish().catch((error: unknown) => {
      writeMetricLine({
        service: 'mailer',
        message: 'announcement progress not counted',
        level: 'WARN',
        counts: {},
        faultClass: faultClassOf(error),
        fields: { errorName: errorNameOf(error) },
        requestId,
      });
      failures.push(...counted);
    });
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
