// The metric names, for the functions that write them and the alarms, dashboard and tools that read them.
// Every metric has the dimension Service; Joined and Visits also by Language, Faults by FaultClass.
export const METRIC_NAMESPACE = 'Mandje';

export const DIMENSIONS = { service: 'Service', language: 'Language', faultClass: 'FaultClass' } as const;

export type Service =
  | 'waitlist'
  | 'visit'
  | 'confirm'
  | 'mail-requests'
  | 'mailer'
  | 'mail-events'
  | 'leave'
  | 'leave-request';

export const METRIC = {
  requests: 'Requests',
  joined: 'Joined',
  visits: 'Visits',
  alreadyRegistered: 'AlreadyRegistered',
  invalid: 'Invalid',
  honeypot: 'Honeypot',
  unavailable: 'Unavailable',
  internal: 'Internal',
  faults: 'Faults',
  latency: 'Latency',
  confirmed: 'Confirmed',
  alreadyConfirmed: 'AlreadyConfirmed',
  linkRefused: 'LinkRefused',
  mailSent: 'MailSent',
  mailFailed: 'MailFailed',
  /** Sent over LATE_MAIL_MINUTES after being asked for. */
  mailLate: 'MailLate',
  mailLag: 'MailLag',
  mailThrottled: 'MailThrottled',
  mailRefused: 'MailRefused',
  /** Sending paused by a fault of the account's set-up, not of one mail: mails stay owed. */
  mailPaused: 'MailPaused',
  mailQueued: 'MailQueued',
  forbidden: 'Forbidden',
  /** Locally only: on AWS, WAF counts its own. */
  rateLimited: 'RateLimited',
  mailLimited: 'MailLimited',
  mailSuppressed: 'MailSuppressed',
  bounced: 'Bounced',
  complained: 'Complained',
  rejected: 'Rejected',
  deliveryDelayed: 'DeliveryDelayed',
  left: 'Left',
  leaveLinkRequested: 'LeaveLinkRequested',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
