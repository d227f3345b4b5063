import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { MailPaused } from '../mailer/mail-pause';
import { MailOutcomeUnknown } from '../mailer/mail-transport';
import type { WaitlistStore } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { logAnnouncement } from './announce-log';
import { type AnnouncementState, type RecipientMessage, stateSchema } from './announcement-state';
import { type AnnouncementSender, deliverAnnouncement, SentButUnrecorded } from './deliver-announcement';

/**
 * The announcement's part of the mailer (functions/mailer/mail-sender.ts): one recipient per queue message
 * of the bulk lane, at the bulk lane's pace (its share of SES's rate, or the announcement's own, when
 * lower). A fault of SES's set-up (the sender not verified, the sandbox, SES paused, the day's quota) is no
 * one's: the mailer pauses, and the message waits on the queue, its person still owed. A fault of this
 * side no retry will fix (the table or its permission missing, a bug) stops the pass: the state says why,
 * and the queue's remaining messages are let go without sending, since running the tool again queues the
 * people still owed from the table. A mail SES refuses for good marks its person undeliverable and goes to the dead-letter
 * queue; a send SES may have taken without answering is counted unknown and never tried again; any other
 * failure returns its message to the queue.
 */

/** The state is read again after this long, for a changed rate or a stop. */
const STATE_MAX_AGE_MS = 10_000;
/** Faults that the same send will meet again and again: the pass stops. */
const STOPPING_FAULTS = new Set(['access_denied', 'missing_resource', 'code']);

type Tally = Record<'sent_nl' | 'sent_en' | 'not_owed' | 'refused' | 'failed' | 'unrecorded', number>;
const emptyTally = (): Tally => ({
  sent_nl: 0,
  sent_en: 0,
  not_owed: 0,
  refused: 0,
  failed: 0,
  unrecorded: 0,
});

/** What became of one recipient's message. */
export type AnnouncementOutcome = 'done' | 'retry' | 'refused';

export interface AnnouncementBatch {
  /** Sends one recipient's mail, if still owed; says what to do with its message. */
  send(
    record: SQSRecord,
    message: RecipientMessage,
    requestId: string | undefined,
  ): Promise<AnnouncementOutcome>;
  /** Adds the batch's counts to each pass's progress item. */
  finish(): Promise<void>;
}

/** The states read, kept across invocations for a few seconds. */
const states = new Map<string, { state: AnnouncementState | undefined; readAt: number }>();

/** The state of the announcement `id`, read again when older than a few seconds or than the pass `pass`. */
async function stateOf(
  store: WaitlistStore,
  id: string,
  pass: number,
): Promise<AnnouncementState | undefined> {
  const cached = states.get(id);
  if (cached && Date.now() - cached.readAt < STATE_MAX_AGE_MS && (cached.state?.pass ?? 0) >= pass)
    return cached.state;
  const { Item } = await store.client.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { email: announcementStateKey(id) },
      ConsistentRead: true,
    }),
  );
  const parsed = stateSchema.safeParse(Item);
  const state = parsed.success ? (parsed.data as AnnouncementState) : undefined;
  states.set(id, { state, readAt: Date.now() });
  return state;
}

/**
 * Stops the pass `state` holds, saying why: the mailer sends none of its remaining mails (a fault no retry
 * fixes, or the operator's `--stop`).
 */
export async function stopPass(
  store: WaitlistStore,
  state: AnnouncementState,
  reason: string,
): Promise<void> {
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: state.email },
      UpdateExpression: 'SET stopReason = :reason',
      ConditionExpression: 'pass = :pass',
      ExpressionAttributeValues: { ':reason': reason, ':pass': state.pass },
    }),
  );
  states.delete(state.announcement.id);
}

async function addProgress(store: WaitlistStore, message: RecipientMessage, tally: Tally): Promise<void> {
  const entries = Object.entries(tally).filter(([, value]) => value > 0);
  if (entries.length === 0) return;
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: announcementProgressKey(message.id, message.pass) },
      UpdateExpression: `ADD ${entries.map(([name]) => `${name} :${name}`).join(', ')}`,
      ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
    }),
  );
}

/**
 * A batch of announcement messages. `sendAt(rate)` waits for turns and sends at the bulk lane's pace, the
 * announcement's own `rate` when that is lower; `timeShort()` says the invocation must stop starting mails.
 */
export function announcementBatch(
  sender: Omit<AnnouncementSender, 'waitTurn' | 'send'>,
  sendAt: (rate: number) => Pick<AnnouncementSender, 'waitTurn' | 'send'>,
  timeShort: () => boolean,
): AnnouncementBatch {
  const { store } = sender;
  const tallies = new Map<string, { message: RecipientMessage; tally: Tally }>();
  const tallyOf = (message: RecipientMessage) => {
    const key = `${message.id}#${message.pass}`;
    let entry = tallies.get(key);
    if (!entry) {
      entry = { message, tally: emptyTally() };
      tallies.set(key, entry);
    }
    return entry.tally;
  };

  return {
    async send(_record, message, requestId) {
      const tally = tallyOf(message);
      const state = await stateOf(store, message.id, message.pass);
      if (timeShort()) return 'retry';
      // Stopped, or queued again since (a newer pass has this person on the queue if still owed).
      if (!state || state.pass !== message.pass || state.stopReason !== undefined) {
        tally.not_owed++;
        return 'done';
      }
      try {
        const outcome = await deliverAnnouncement(
          { ...sender, ...sendAt(state.rate ?? Number.POSITIVE_INFINITY) },
          state.announcement,
          message.key,
          state.resendUnknownBefore,
        );
        if (outcome === 'not_owed') tally.not_owed++;
        else if (outcome === 'refused') {
          tally.refused++;
          return 'refused';
        } else tally[`sent_${outcome.sent}`]++;
        return 'done';
      } catch (error) {
        // Not sent, still owed: the mailer returns the message to the queue until the pause ends.
        if (error instanceof MailPaused) throw error;
        if (error instanceof SentButUnrecorded) {
          tally.unrecorded++;
          return 'done';
        }
        if (error instanceof MailOutcomeUnknown) {
          logAnnouncement('WARN', 'announcement outcome unknown', {
            announcement: message.id,
            faultClass: faultClassOf(error),
            requestId,
          });
          tally.unrecorded++;
          return 'done';
        }
        const faultClass = faultClassOf(error);
        logAnnouncement(faultClass === 'throttled' ? 'WARN' : 'ERROR', 'announcement not sent', {
          announcement: message.id,
          faultClass,
          errorName: errorNameOf(error),
          requestId,
        });
        tally.failed++;
        if (STOPPING_FAULTS.has(faultClass))
          await stopPass(store, state, `${faultClass}: ${errorNameOf(error)}`);
        return 'retry';
      }
    },
    async finish() {
      for (const { message, tally } of tallies.values()) await addProgress(store, message, tally);
    },
  };
}
