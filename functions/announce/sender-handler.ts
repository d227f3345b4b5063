import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sesTransport } from '../mailer/mail-transport';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { logAnnouncement } from './announce-log';
import { announcementProgressKey, announcementStateKey } from './announcement-keys';
import {
  type AnnouncementState,
  type RecipientMessage,
  recipientMessageSchema,
  stateSchema,
} from './announcement-state';
import { type AnnouncementSender, deliverAnnouncement, SentButUnrecorded } from './deliver-announcement';
import { Pacer, untilNotThrottled } from './pacer';

/**
 * The sender: one recipient per queue message, sent at the state's rate. Its reserved concurrency is 1, so
 * one pacer (kept while the container lives) holds the rate for the whole account's announcement. A send
 * throttled by SES is waited out and tried again; when the invocation's time runs short, its message goes
 * back to the queue. Any other failure of one send returns its message to the queue, and after a few
 * receives the queue moves it to the dead-letter queue (an alarm says so). A fault no retry will fix (no
 * permission, SES paused, a bug) stops the pass: the state says why, and the queue's remaining messages are
 * let go without sending, since running the tool again plans the people still owed from the table.
 */

const store = storeFromEnvironment();
const transport = sesTransport(process.env.SES_CONFIGURATION_SET);
const settings = {
  siteUrl: requiredEnv('SITE_URL'),
  mailFrom: requiredEnv('MAIL_FROM'),
  contactEmail: requiredEnv('CONTACT_EMAIL'),
  brandName: 'Mandje',
};

/** Sends in flight at once: each waits for SES, while the pacer spaces their starts. */
const CONCURRENCY = 8;
/** Left for writing the counts when the invocation is about to end. */
const TIME_MARGIN_MS = 15_000;
/** The state is read again after this long, for a changed rate or a stop. */
const STATE_MAX_AGE_MS = 10_000;
/** Faults that the same send will meet again and again: the pass stops. */
const STOPPING_FAULTS = new Set(['access_denied', 'missing_resource', 'code']);

let pacer: Pacer | undefined;
const states = new Map<string, { state: AnnouncementState | undefined; readAt: number }>();

async function stateOf(id: string): Promise<AnnouncementState | undefined> {
  const cached = states.get(id);
  if (cached && Date.now() - cached.readAt < STATE_MAX_AGE_MS) return cached.state;
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

async function stopPass(state: AnnouncementState, reason: string): Promise<void> {
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: state.email },
      UpdateExpression: 'SET phase = :stopped, stopReason = :reason, updatedAt = :now',
      ConditionExpression: 'pass = :pass',
      ExpressionAttributeValues: {
        ':stopped': 'stopped',
        ':reason': reason,
        ':now': new Date().toISOString(),
        ':pass': state.pass,
      },
    }),
  );
  states.delete(state.announcement.id);
}

type Tally = { sent_nl: number; sent_en: number; not_owed: number; failed: number; unrecorded: number };

async function addProgress(message: RecipientMessage, tally: Tally): Promise<void> {
  const entries = Object.entries(tally).filter(([, value]) => value > 0);
  if (entries.length === 0) return;
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { email: announcementProgressKey(message.id, message.pass) },
      UpdateExpression: `SET updatedAt = :now ADD ${entries.map(([name]) => `${name} :${name}`).join(', ')}`,
      ExpressionAttributeValues: {
        ':now': new Date().toISOString(),
        ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
      },
    }),
  );
}

export async function handler(
  event: SQSEvent,
  context: Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
): Promise<SQSBatchResponse> {
  const failures: string[] = [];
  const tallies = new Map<string, { message: RecipientMessage; tally: Tally }>();
  const tallyOf = (message: RecipientMessage) => {
    const key = `${message.id}#${message.pass}`;
    let entry = tallies.get(key);
    if (!entry) {
      entry = { message, tally: { sent_nl: 0, sent_en: 0, not_owed: 0, failed: 0, unrecorded: 0 } };
      tallies.set(key, entry);
    }
    return entry.tally;
  };
  const timeShort = () => context.getRemainingTimeInMillis() < TIME_MARGIN_MS;

  const one = async (record: SQSRecord): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      body = undefined;
    }
    const parsed = recipientMessageSchema.safeParse(body);
    // A message that is none of ours can never succeed: let it go, with a line in the log.
    if (!parsed.success) {
      logAnnouncement('ERROR', 'unreadable message', { messageId: record.messageId });
      return;
    }
    const message = parsed.data;
    const tally = tallyOf(message);
    const state = await stateOf(message.id);
    // Stopped, or planned again since (a newer pass has this person on the queue if still owed).
    if (!state || state.pass !== message.pass || state.phase === 'stopped' || timeShort()) {
      if (timeShort()) failures.push(record.messageId);
      else tally.not_owed++;
      return;
    }
    if (!pacer) pacer = new Pacer(state.rate);
    else if (pacer.rate > state.rate) pacer = new Pacer(state.rate);
    await pacer.acquire();
    const sender: AnnouncementSender = {
      store,
      ...settings,
      send: (mail) =>
        untilNotThrottled(() => transport.send(mail), { pacer: pacer as Pacer, giveUp: timeShort }),
    };
    try {
      const outcome = await deliverAnnouncement(sender, state.announcement, message.key);
      if (outcome === 'not_owed') tally.not_owed++;
      else tally[`sent_${outcome.sent}`]++;
    } catch (error) {
      if (error instanceof SentButUnrecorded) {
        tally.unrecorded++;
        return;
      }
      const faultClass = faultClassOf(error);
      logAnnouncement(faultClass === 'throttled' ? 'WARN' : 'ERROR', 'announcement not sent', {
        announcement: message.id,
        faultClass,
        errorName: errorNameOf(error),
        requestId: context.awsRequestId,
      });
      failures.push(record.messageId);
      tally.failed++;
      if (STOPPING_FAULTS.has(faultClass)) await stopPass(state, `${faultClass}: ${errorNameOf(error)}`);
    }
  };

  const inFlight = new Set<Promise<void>>();
  for (const record of event.Records) {
    while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    const running = one(record).catch(() => {
      failures.push(record.messageId);
    });
    const tracked = running.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  await Promise.all(inFlight);
  for (const { message, tally } of tallies.values()) await addProgress(message, tally);
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}
