import type { Context, EventBridgeEvent } from 'aws-lambda';
import { emailKey } from '#contract/email-address';
import { METRIC, type MetricName } from '#contract/metrics';
import { markRecordSuppressed, suppressMailbox } from '../mailer/mail-limit';
import { storeFromEnvironment } from '../store/store-client';
import { requiredEnv } from '../strict-input';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { writeMetricLine } from '../telemetry/metrics';

// A permanent bounce or a complaint silences a mailbox for good. A failure is thrown: EventBridge retries.

const store = storeFromEnvironment();
const limits = { client: store.client, tableName: requiredEnv('MAIL_LIMIT_TABLE_NAME') };

interface SesEvent {
  eventType: string;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { emailAddress?: string }[] };
  complaint?: { complainedRecipients?: { emailAddress?: string }[] };
}

const KINDS = new Map<string, [string, MetricName]>([
  ['Bounce', ['bounce', METRIC.bounced]],
  ['Complaint', ['complaint', METRIC.complained]],
  ['Reject', ['reject', METRIC.rejected]],
  ['DeliveryDelay', ['delivery_delay', METRIC.deliveryDelayed]],
]);

/** SES reports a local part that is not a dot-atom (`a..b`) quoted, as the mailer wrote it; the key has it bare. */
function unquoted(address: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"@([^@]+)$/.exec(address);
  return quoted ? `${(quoted[1] ?? '').replace(/\\(.)/g, '$1')}@${quoted[2]}` : address;
}

export async function handler(
  event: EventBridgeEvent<string, SesEvent>,
  context?: Pick<Context, 'awsRequestId'>,
): Promise<void> {
  const detail = event.detail;
  const [known, metric] = KINDS.get(detail.eventType) ?? ['other'];
  // Transient bounces (a full mailbox, an out-of-office) may pass; SES retries them itself.
  const kind = known === 'bounce' && detail.bounce?.bounceType !== 'Permanent' ? 'transient_bounce' : known;
  const reason = kind === 'bounce' || kind === 'complaint' ? kind : undefined;
  const bounceSubType = detail.bounce?.bounceSubType;
  /** One line per event, with its metric; never an address. */
  const log = (counted: { suppressed?: number; marked?: number }, failed?: unknown) =>
    writeMetricLine({
      service: 'mail-events',
      message: 'mail event',
      level: failed ? 'ERROR' : reason ? 'WARN' : 'INFO',
      counts: metric ? { [metric]: 1 } : {},
      faultClass: failed ? faultClassOf(failed) : undefined,
      fields: { kind, ...counted, bounceSubType, errorName: failed ? errorNameOf(failed) : undefined },
      requestId: context?.awsRequestId,
    });
  if (!reason) return log({});
  const at = new Date().toISOString();
  try {
    let suppressed = 0;
    let marked = 0;
    const recipients =
      (reason === 'bounce' ? detail.bounce?.bouncedRecipients : detail.complaint?.complainedRecipients) ?? [];
    const keys = new Set(recipients.map(({ emailAddress = '' }) => emailKey(unquoted(emailAddress.trim()))));
    for (const key of keys) {
      if (key === undefined) continue;
      // The mailbox first: should the record's mark fail, the event comes again, and this is a no-op.
      if (await suppressMailbox(limits, key, { reason, at })) suppressed++;
      if (await markRecordSuppressed(store, key, { reason, at })) marked++;
    }
    log({ suppressed, marked });
  } catch (error) {
    log({}, error);
    throw error;
  }
}
