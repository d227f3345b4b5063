/**
 * SES's mailbox simulator, offline: what SES reports for a mail to one of its simulator addresses, as the
 * configuration set's event publishing puts it on EventBridge's default bus. The production path hands
 * each event to the functions whose rule matches it (production-path.ts), as EventBridge would.
 * https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html (mailbox simulator)
 */
import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import { ACCOUNT } from './deployed-stack';

/** SES's mailbox simulator: mail to these addresses is answered with events, never delivered. */
const SIMULATOR_DOMAIN = 'simulator.amazonses.com';

type EventType = 'Delivery' | 'Bounce' | 'Complaint';

/** The part of SES's event record that the simulator fills in. */
export interface SesEventDetail {
  eventType: EventType;
  mail: {
    timestamp: string;
    messageId: string;
    source: string;
    destination: string[];
    tags: Record<string, string[]>;
  };
  bounce?: {
    bounceType: 'Permanent';
    bounceSubType: 'General' | 'OnAccountSuppressionList';
    bouncedRecipients: { emailAddress: string }[];
    timestamp: string;
  };
  complaint?: { complainedRecipients: { emailAddress: string }[]; timestamp: string };
  delivery?: { recipients: string[]; timestamp: string; smtpResponse: string };
}

export type SesEvent = EventBridgeEvent<string, SesEventDetail>;

/** EventBridge's detail-type for each kind of SES event. */
const DETAIL_TYPE: Record<EventType, string> = {
  Delivery: 'Email Delivered',
  Bounce: 'Email Bounced',
  Complaint: 'Email Complaint Received',
};

type Outcome =
  | { eventType: 'Delivery' }
  | { eventType: 'Bounce'; subType: 'General' | 'OnAccountSuppressionList' }
  | {
      eventType: 'Complaint';
    };

/** What SES does for each simulator mailbox: the events, in order. ooto's auto-reply needs no event. */
export const SIMULATOR_OUTCOMES: Record<string, Outcome[]> = {
  success: [{ eventType: 'Delivery' }],
  bounce: [{ eventType: 'Bounce', subType: 'General' }],
  suppressionlist: [{ eventType: 'Bounce', subType: 'OnAccountSuppressionList' }],
  complaint: [{ eventType: 'Delivery' }, { eventType: 'Complaint' }],
  ooto: [{ eventType: 'Delivery' }],
};

/** The bare address of a header value such as `Ann <ann@example.nl>`. */
const bareAddress = (value: string) => value.replace(/^.*<|>.*$/g, '').trim();

/**
 * The events SES would publish for a mail it accepted (`messageId`: SES's own), sent through the
 * configuration set `configurationSet`; none when it is not to a simulator mailbox SES knows.
 */
export function simulatorEvents(
  mail: { from: string; to: string; messageId: string; configurationSet?: string },
  region: string,
  now = new Date(),
): SesEvent[] {
  const to = bareAddress(mail.to);
  const [local = '', domain = ''] = to.toLowerCase().split('@');
  // SES answers a labelled address (`bounce+label1@`) as the mailbox before the label.
  const mailbox = local.split('+')[0] ?? '';
  const outcomes = domain === SIMULATOR_DOMAIN ? (SIMULATOR_OUTCOMES[mailbox] ?? []) : [];
  const timestamp = now.toISOString();
  const mailFacts = {
    timestamp,
    messageId: mail.messageId,
    source: bareAddress(mail.from),
    destination: [to],
    tags: (mail.configurationSet ? { 'ses:configuration-set': [mail.configurationSet] } : {}) as Record<
      string,
      string[]
    >,
  };
  return outcomes.map((outcome) => ({
    version: '0',
    id: randomUUID(),
    'detail-type': DETAIL_TYPE[outcome.eventType],
    source: 'aws.ses',
    account: ACCOUNT,
    time: timestamp,
    region,
    resources: [],
    detail: {
      eventType: outcome.eventType,
      mail: mailFacts,
      ...(outcome.eventType === 'Delivery'
        ? { delivery: { recipients: [to], timestamp, smtpResponse: '250 2.6.0 Message received' } }
        : {}),
      ...(outcome.eventType === 'Bounce'
        ? {
            bounce: {
              bounceType: 'Permanent' as const,
              bounceSubType: outcome.subType,
              bouncedRecipients: [{ emailAddress: to }],
              timestamp,
            },
          }
        : {}),
      ...(outcome.eventType === 'Complaint'
        ? { complaint: { complainedRecipients: [{ emailAddress: to }], timestamp } }
        : {}),
    },
  }));
}
