import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { MailPaused } from '../mailer/mail-pause';
import { MailOutcomeUnknown } from '../mailer/mail-transport';
import { readItem, updateIf, type WaitlistStore } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import {
  type AnnouncementState,
  type Progress,
  progressSchema,
  type RecipientMessage,
  stateSchema,
} from './announcement-state';
import { type AnnouncementSender, deliverAnnouncement, SentButUnrecorded } from './deliver-announcement';

// A fault no retry fixes stops the pass: its other messages are let go; running the tool again queues them.

const STOPPING_FAULTS = new Set(['access_denied', 'missing_resource', 'code']);

// Kept across invocations, and read again after ten seconds for a changed rate or a stop.
const states = new Map<string, { state: AnnouncementState | undefined; readAt: number }>();

async function stateOf(store: WaitlistStore, id: string, pass: number) {
  const cached = states.get(id);
  if (cached && Date.now() - cached.readAt < 10_000 && (cached.state?.pass ?? 0) >= pass) return cached.state;
  const state = stateSchema.safeParse(await readItem(store, { email: announcementStateKey(id) })).data;
  states.set(id, { state, readAt: Date.now() });
  return state;
}

/** The mailer sends none of the pass's remaining mails (a fault no retry fixes, or the operator's `--stop`). */
export async function stopPass(store: WaitlistStore, state: AnnouncementState, reason: string) {
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

/** `sendAt(rate)` paces at the bulk lane's rate, or the announcement's own when lower. */
export function announcementBatch(
  sender: Omit<AnnouncementSender, 'waitTurn' | 'send'>,
  sendAt: (rate: number) => Pick<AnnouncementSender, 'waitTurn' | 'send'>,
  timeShort: () => boolean,
) {
  const { store } = sender;
  const tallies = new Map<string, { message: RecipientMessage; tally: Progress }>();

  return {
    async send(message: RecipientMessage, requestId: string | undefined) {
      const key = `${message.id}#${message.pass}`;
      const { tally } = tallies.get(key) ?? { tally: progressSchema.parse({}) };
      tallies.set(key, { message, tally });
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
        if (outcome === 'refused') {
          tally.refused++;
          return 'refused';
        }
        tally[outcome === 'not_owed' ? outcome : (`sent_${outcome.sent}` as const)]++;
        return 'done';
      } catch (error) {
        if (error instanceof MailPaused) throw error;
        const faultClass = faultClassOf(error);
        // One JSON line; never an address.
        const log = (level: 'WARN' | 'ERROR', text: string, errorName?: string) => {
          const line = { level, message: text, announcement: message.id, faultClass, errorName, requestId };
          (level === 'ERROR' ? console.error : console.warn)(JSON.stringify(line));
        };
        if (error instanceof MailOutcomeUnknown) log('WARN', 'announcement outcome unknown');
        if (error instanceof SentButUnrecorded || error instanceof MailOutcomeUnknown) {
          tally.unrecorded++;
          return 'done';
        }
        const errorName = errorNameOf(error);
        log(faultClass === 'throttled' ? 'WARN' : 'ERROR', 'announcement not sent', errorName);
        tally.failed++;
        if (STOPPING_FAULTS.has(faultClass)) await stopPass(store, state, `${faultClass}: ${errorName}`);
        return 'retry';
      }
    },
    async finish() {
      for (const { message, tally } of tallies.values()) {
        const entries = Object.entries(tally).filter(([, value]) => value > 0);
        if (entries.length === 0) continue;
        await updateIf(store, announcementProgressKey(message.id, message.pass), {
          UpdateExpression: `ADD ${entries.map(([name]) => `${name} :${name}`).join(', ')}`,
          ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
        });
      }
    },
  };
}
