import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { emailKey } from '#contract/email-address';
import { METRIC, type MetricName } from '#contract/metrics';
import type { MailSuppression } from '#contract/waitlist-table';
import { suppressMailbox, updateIf } from '../mailer/mailbox-suppression';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';

// SES's events from EventBridge: a permanent bounce or a complaint suppresses the mailbox (every spelling,
// for good) and marks the record mailed; a complaint outranks a bounce. A store failure is thrown, so
// EventBridge tries again, then its dead-letter queue keeps the event.

const store = storeFromEnvironment();
const limits = { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') };

export interface SesEvent {
  eventType: string;
  mail: { messageId?: string; destination?: string[] };
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { emailAddress?: string }[] };
  complaint?: { complainedRecipients?: { emailAddress?: string }[] };
}

export type MailEvent = EventBridgeEvent<string, SesEvent>;

type EventKind = 'bounce' | 'transient_bounce' | 'complaint' | 'reject' | 'delivery_delay' | 'other';

const KINDS = new Map<string, EventKind>([
  ['Complaint', 'complaint'],
  ['Reject', 'reject'],
  ['DeliveryDelay', 'delivery_delay'],
]);

function kindOf({ eventType, bounce }: SesEvent): EventKind {
  // Transient bounces (a full mailbox, an out-of-office) may pass; SES retries them itself.
  if (eventType === 'Bounce') return bounce?.bounceType === 'Permanent' ? 'bounce' : 'transient_bounce';
  return KINDS.get(eventType) ?? 'other';
}

const KIND_METRIC: Partial<Record<EventKind, MetricName>> = {
  bounce: METRIC.bounced,
  transient_bounce: METRIC.bounced,
  complaint: METRIC.complained,
  reject: METRIC.rejected,
  delivery_delay: METRIC.deliveryDelayed,
};

/** SES reports a local part that is not a dot-atom (`a..b`) quoted, as the mailer wrote it; the key has it bare. */
function unquoted(address: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"@([^@]+)$/.exec(address);
  return quoted ? `${(quoted[1] ?? '').replace(/\\(.)/g, '$1')}@${quoted[2]}` : address;
}

function suppressedBy(event: SesEvent, reason: MailSuppression): string[] {
  const recipients =
    reason === 'bounce' ? event.bounce?.bouncedRecipients : event.complaint?.complainedRecipients;
  const keys = (recipients ?? []).map(({ emailAddress = '' }) => emailKey(unquoted(emailAddress.trim())));
  return [...new Set(keys.filter((key): key is string => key !== undefined))];
}

/** Marks the record of `key`, if there is one; a bounce does not overwrite a complaint. */
async function suppress(key: string, reason: MailSuppression, now: Date): Promise<boolean> {
  const marked = await updateIf(
    store,
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
  return marked !== undefined;
}

export async function handler(event: MailEvent, context?: Pick<Context, 'awsRequestId'>): Promise<void> {
  const detail = event.detail;
  const kind = kindOf(detail);
  const reason: MailSuppression | undefined =
    kind === 'bounce' ? 'bounce' : kind === 'complaint' ? 'complaint' : undefined;
  const bounceSubType = detail.bounce?.bounceSubType;
  /** One line per event, with its metric; never an address. */
  const log = (
    { suppressed, marked, errorName }: { suppressed?: number; marked?: number; errorName?: string },
    failed?: unknown,
  ) => {
    const metric = KIND_METRIC[kind];
    writeMetricLine({
      service: 'mail-events',
      message: 'mail event',
      level: failed ? 'ERROR' : kind === 'complaint' || kind === 'bounce' ? 'WARN' : 'INFO',
      counts: metric ? { [metric]: 1 } : {},
      faultClass: failed ? faultClassOf(failed) : undefined,
      fields: { kind, suppressed, marked, bounceSubType, errorName },
      requestId: context?.awsRequestId,
    });
  };
  if (!reason) return log({});
  const now = new Date();
  try {
    let suppressed = 0;
    let marked = 0;
    for (const key of suppressedBy(detail, reason)) {
      // The mailbox first: should the record's mark fail, the event comes again, and this is a no-op.
      if (await suppressMailbox(limits, key, { reason, at: now.toISOString() })) suppressed++;
      if (await suppress(key, reason, now)) marked++;
    }
    log({ suppressed, marked });
  } catch (error) {
    log({ errorName: errorNameOf(error) }, error);
    throw error;
  }
}
