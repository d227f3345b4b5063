import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { emailKey } from '#contract/email-address';
import { METRIC, type MetricName } from '#contract/metrics';
import type { MailSuppression } from '#contract/waitlist-table';
import { suppressMailbox } from '../mailer/mailbox-suppression';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';

/**
 * Hears what became of the mails SES sent, from the configuration set's events on EventBridge. A permanent bounce or a complaint
 * suppresses the mailbox, every spelling of it, for good (an item of the mail limit table, which outlives
 * the person's records: functions/mailer/mailbox-suppression.ts), and marks the record that was mailed
 * (mailSuppressed): no mail of any kind goes to that mailbox again, and the person is off the waitlist. A
 * complaint outranks a bounce. Every kind of event is counted; the reputation alarms watch SES's own rates.
 * A store failure is thrown, so EventBridge tries again, then its dead-letter queue keeps the event.
 */

const store = storeFromEnvironment();
const limits = { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') };

/** The part of SES's event-publishing record that is read here. */
export interface SesEvent {
  eventType: string;
  mail: { messageId?: string; destination?: string[] };
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { emailAddress?: string }[] };
  complaint?: { complainedRecipients?: { emailAddress?: string }[] };
}

export type MailEvent = EventBridgeEvent<string, SesEvent>;

type EventKind = 'bounce' | 'transient_bounce' | 'complaint' | 'reject' | 'delivery_delay' | 'other';

function kindOf({ eventType, bounce }: SesEvent): EventKind {
  switch (eventType) {
    case 'Bounce':
      // Transient bounces (a full mailbox, an out-of-office) may pass; SES retries them itself.
      return bounce?.bounceType === 'Permanent' ? 'bounce' : 'transient_bounce';
    case 'Complaint':
      return 'complaint';
    case 'Reject':
      return 'reject';
    case 'DeliveryDelay':
      return 'delivery_delay';
    default:
      return 'other';
  }
}

const KIND_METRIC: Partial<Record<EventKind, MetricName>> = {
  bounce: METRIC.bounced,
  transient_bounce: METRIC.bounced,
  complaint: METRIC.complained,
  reject: METRIC.rejected,
  delivery_delay: METRIC.deliveryDelayed,
};

/**
 * An address as the mailer wrote it, with a local part that is not a dot-atom (`a..b`) in quotes:
 * SES reports it so, and the waitlist's key has it bare.
 */
function unquoted(address: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"@([^@]+)$/.exec(address);
  return quoted ? `${(quoted[1] ?? '').replace(/\\(.)/g, '$1')}@${quoted[2]}` : address;
}

/** The mailboxes an event says no more mail may go to, as waitlist keys. */
function suppressedBy(event: SesEvent, kind: EventKind): string[] {
  const recipients =
    kind === 'bounce'
      ? event.bounce?.bouncedRecipients
      : kind === 'complaint'
        ? event.complaint?.complainedRecipients
        : undefined;
  const keys = (recipients ?? []).map(({ emailAddress = '' }) => emailKey(unquoted(emailAddress.trim())));
  return [...new Set(keys.filter((key): key is string => key !== undefined))];
}

/**
 * Marks the record of `key`, if there is one. A bounce does not overwrite a complaint. A mailbox that is
 * not on the list (it left, or its record expired) has nothing to mark.
 */
async function suppress(key: string, reason: MailSuppression, now: Date): Promise<boolean> {
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: key },
        UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :now',
        ConditionExpression:
          reason === 'complaint'
            ? 'attribute_exists(email) AND (attribute_not_exists(mailSuppressed) OR mailSuppressed <> :reason)'
            : 'attribute_exists(email) AND attribute_not_exists(mailSuppressed)',
        ExpressionAttributeValues: { ':reason': reason, ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** One line per event, with its metric. Never an address. */
function log(
  kind: EventKind,
  fields: { suppressed?: number; marked?: number; bounceSubType?: string; errorName?: string },
  requestId: string | undefined,
  failed?: unknown,
): void {
  const metric = KIND_METRIC[kind];
  writeMetricLine({
    service: 'mail-events',
    message: 'mail event',
    level: failed ? 'ERROR' : kind === 'complaint' || kind === 'bounce' ? 'WARN' : 'INFO',
    counts: metric ? { [metric]: 1 } : {},
    faultClass: failed ? faultClassOf(failed) : undefined,
    fields: { kind, ...fields },
    requestId,
  });
}

export async function handler(event: MailEvent, context?: Pick<Context, 'awsRequestId'>): Promise<void> {
  const requestId = context?.awsRequestId;
  const detail = event.detail;
  const kind = kindOf(detail);
  const reason: MailSuppression | undefined =
    kind === 'bounce' ? 'bounce' : kind === 'complaint' ? 'complaint' : undefined;
  const bounceSubType = detail.bounce?.bounceSubType;
  if (!reason) {
    log(kind, { bounceSubType }, requestId);
    return;
  }
  const now = new Date();
  try {
    let suppressed = 0;
    let marked = 0;
    for (const key of suppressedBy(detail, kind)) {
      // The mailbox first: should the record's mark fail, the event is handled again, and this is a no-op.
      if (await suppressMailbox(limits, key, { reason, at: now.toISOString() })) suppressed++;
      if (await suppress(key, reason, now)) marked++;
    }
    log(kind, { suppressed, marked, bounceSubType }, requestId);
  } catch (error) {
    log(kind, { bounceSubType, errorName: errorNameOf(error) }, requestId, error);
    throw error;
  }
}
