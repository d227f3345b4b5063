/**
 * SES's mailbox simulator, offline: the events SES publishes for a mail to one of its simulator addresses, as
 * the configuration set's event destination puts them on EventBridge's default bus.
 * https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html (mailbox simulator)
 */
import { randomUUID } from 'node:crypto';
import { ACCOUNT } from './deployed-stack';

/** What SES does for each simulator mailbox: the events, in order (a bounce's subtype after the colon). */
const OUTCOMES: Record<string, string[]> = {
  success: ['Delivery'],
  bounce: ['Bounce:General'],
  suppressionlist: ['Bounce:OnAccountSuppressionList'],
  complaint: ['Delivery', 'Complaint'],
  ooto: ['Delivery'],
};
const DETAIL_TYPE: Record<string, string> = {
  Delivery: 'Email Delivered',
  Bounce: 'Email Bounced',
  Complaint: 'Email Complaint Received',
};

/** The events SES publishes for a mail it accepted; none when it is not to a simulator mailbox. */
export function simulatorEvents(
  mail: { from: string; to: string; messageId: string; configurationSet?: string },
  region: string,
) {
  // The bare address of a header value such as `Ann <ann@example.nl>`.
  const [to, from] = [mail.to, mail.from].map((value) => value.replace(/^.*<|>.*$/g, '').trim()) as [
    string,
    string,
  ];
  const [local = '', domain = ''] = to.toLowerCase().split('@');
  // SES answers a labelled address (`bounce+label1@`) as the mailbox before the label.
  const outcomes = domain === 'simulator.amazonses.com' ? (OUTCOMES[local.split('+')[0] ?? ''] ?? []) : [];
  const timestamp = new Date().toISOString();
  const tags = mail.configurationSet ? { 'ses:configuration-set': [mail.configurationSet] } : {};
  return outcomes.map((outcome) => {
    const [eventType = '', bounceSubType] = outcome.split(':');
    const recipients = [{ emailAddress: to }];
    return {
      version: '0',
      id: randomUUID(),
      'detail-type': DETAIL_TYPE[eventType] ?? '',
      source: 'aws.ses',
      account: ACCOUNT,
      time: timestamp,
      region,
      resources: [],
      detail: {
        eventType,
        mail: { timestamp, messageId: mail.messageId, source: from, destination: [to], tags },
        ...(eventType === 'Delivery' && {
          delivery: { recipients: [to], timestamp, smtpResponse: '250 2.6.0' },
        }),
        ...(eventType === 'Bounce' && {
          bounce: { bounceType: 'Permanent', bounceSubType, bouncedRecipients: recipients, timestamp },
        }),
        ...(eventType === 'Complaint' && { complaint: { complainedRecipients: recipients, timestamp } }),
      },
    };
  });
}
