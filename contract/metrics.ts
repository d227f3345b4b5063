/**
 * The names of the functions' metrics: CloudWatch Embedded Metric Format lines written by the functions
 * (functions/telemetry/metrics.ts), and read by the stack's alarms and dashboard (infra/constructs/operations.ts),
 * the runner and the operator's tool. Written here once, so a name cannot differ between writer and reader.
 *
 * Every metric has the dimension `Service` (which route's handler, or for the visit beacon,
 * `visit`); `Joined` and `Visits` also by `Language`, and `Faults` by `FaultClass`.
 */
export const METRIC_NAMESPACE = 'Mandje';

export const DIMENSIONS = {
  service: 'Service',
  language: 'Language',
  faultClass: 'FaultClass',
} as const;

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
  /** Each request a function answered (waitlist, confirm). */
  requests: 'Requests',
  /** Signups stored; also by Language. */
  joined: 'Joined',
  /** Visitors counted: a visitor's first home page of the UTC day in a language (#contract/visit-counting); also by Language. */
  visits: 'Visits',
  alreadyRegistered: 'AlreadyRegistered',
  /** Requests refused as bad input: an invalid address, a malformed body, a wrong type or method. */
  invalid: 'Invalid',
  /** Robots caught by the hidden field. */
  honeypot: 'Honeypot',
  /** Transient faults, answered 503 "try again". */
  unavailable: 'Unavailable',
  /** Permanent faults (access denied, missing table, refused request, a bug), answered 500. */
  internal: 'Internal',
  /** Unavailable and internal answers and failed mails by FaultClass. */
  faults: 'Faults',
  /** Milliseconds from the request's arrival to its answer. */
  latency: 'Latency',
  confirmed: 'Confirmed',
  alreadyConfirmed: 'AlreadyConfirmed',
  /** Confirmation links that no longer work: expired, replaced, or never made here. */
  linkRefused: 'LinkRefused',
  mailSent: 'MailSent',
  /** Mails that could not be sent this time; the stream tries again, then the dead-letter queue holds them. */
  mailFailed: 'MailFailed',
  /** Mails sent longer than LATE_MAIL_MINUTES after they were asked for (#contract/mail-pace). */
  mailLate: 'MailLate',
  /** Milliseconds from a mail's request to its sending: how far mail lags behind signups. */
  mailLag: 'MailLag',
  /** Times SES said "slow down" to a send, which then waited and went again. */
  mailThrottled: 'MailThrottled',
  /** Mails SES refused for good: moved to the dead-letter queue, never retried. */
  mailRefused: 'MailRefused',
  /**
   * Sending paused by a fault of the account's set-up rather than of one mail (access denied, the sender
   * not verified, the sandbox, SES paused, the day's quota spent): the mails stay owed on their queues and
   * go once the cause is gone. Alarmed.
   */
  mailPaused: 'MailPaused',
  /** Mail requests put on the mail queue from the table's stream. */
  mailQueued: 'MailQueued',
  /** Requests refused with 403: posted by another site's page, or not through CloudFront. */
  forbidden: 'Forbidden',
  /** Requests refused with 429 locally (on AWS, WAF counts its own). */
  rateLimited: 'RateLimited',
  /** Mails asked for (confirmations, leave links) not sent: their mailbox had its MAILS_PER_MAILBOX in 24 hours. */
  mailLimited: 'MailLimited',
  /** Mails not sent because their mailbox bounced or complained before. */
  mailSuppressed: 'MailSuppressed',
  /** SES's events for sent mail (functions/mail-events). */
  bounced: 'Bounced',
  complained: 'Complained',
  rejected: 'Rejected',
  deliveryDelayed: 'DeliveryDelayed',
  /** People who left the waitlist by their leave link (a used or unknown link is not counted). */
  left: 'Left',
  /** Leave links asked for on the privacy page (whether or not the address is on the list). */
  leaveLinkRequested: 'LeaveLinkRequested',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
