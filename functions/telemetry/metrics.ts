/**
 * The functions' metrics, written as CloudWatch Embedded Metric Format in the one log line each request
 * (or mail) already writes: CloudWatch Logs turns the line into metrics, with no call to CloudWatch and no
 * extra line. The stack's alarms and dashboard (infra/constructs/operations.ts) read these names, so they
 * are defined here once.
 *
 * Every metric has the dimension `Service` (which function); `Joined` also by `Language`, and `Faults` by
 * `FaultClass`. A line never holds an address, a token or a request body: only outcomes and figures.
 */
import type { FaultClass } from './fault-class';

export const METRIC_NAMESPACE = 'Mandje';

export const DIMENSIONS = {
  service: 'Service',
  language: 'Language',
  faultClass: 'FaultClass',
} as const;

export type Service =
  | 'waitlist'
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
  /** Mail requests put on the mail queue from the table's stream. */
  mailQueued: 'MailQueued',
  /** Requests refused with 403: posted by another site's page, or not through CloudFront. */
  forbidden: 'Forbidden',
  /** Requests refused with 429 locally (on AWS, WAF counts its own). */
  rateLimited: 'RateLimited',
  /** Confirmation mails not sent because their mailbox had its MAILS_PER_MAILBOX for the window. */
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

type Level = 'INFO' | 'WARN' | 'ERROR';

export interface MetricLine {
  service: Service;
  message: string;
  level: Level;
  /** Counts of this line's outcome, each usually 1. */
  counts: Partial<Record<MetricName, number>>;
  latencyMs?: number;
  /** A mail's lag: milliseconds from its request to its sending (MailLag). */
  lagMs?: number;
  /** The signup's language: adds `Joined` by Language. */
  language?: string;
  /** The fault's class: adds `Faults` by FaultClass. */
  faultClass?: FaultClass;
  /** What else the line says: outcome, status, the error's name. Never personal data. */
  fields: Record<string, string | number | undefined>;
  /** For finding the request's other lines (API Gateway's request id, the Lambda invocation's). */
  requestId?: string;
  now?: Date;
}

/**
 * The line as CloudWatch reads it: the fields of Lambda's own JSON log format (timestamp, level, message,
 * requestId), the figures as top-level members, and `_aws` saying which members are metrics.
 */
export function metricLine(line: MetricLine): Record<string, unknown> {
  const now = line.now ?? new Date();
  const counts = Object.entries(line.counts).filter(([, value]) => value !== undefined) as [string, number][];
  const values: Record<string, number> = Object.fromEntries(counts);
  const perService = counts.map(([name]) => ({ Name: name, Unit: 'Count' }));
  if (line.latencyMs !== undefined) {
    values[METRIC.latency] = line.latencyMs;
    perService.push({ Name: METRIC.latency, Unit: 'Milliseconds' });
  }
  if (line.lagMs !== undefined) {
    values[METRIC.mailLag] = line.lagMs;
    perService.push({ Name: METRIC.mailLag, Unit: 'Milliseconds' });
  }
  const directives: {
    Namespace: string;
    Dimensions: string[][];
    Metrics: { Name: string; Unit: string }[];
  }[] = [{ Namespace: METRIC_NAMESPACE, Dimensions: [[DIMENSIONS.service]], Metrics: perService }];
  if (line.language !== undefined && values[METRIC.joined] !== undefined)
    directives.push({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [[DIMENSIONS.service, DIMENSIONS.language]],
      Metrics: [{ Name: METRIC.joined, Unit: 'Count' }],
    });
  if (line.faultClass !== undefined) {
    values[METRIC.faults] = 1;
    directives.push({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [[DIMENSIONS.service, DIMENSIONS.faultClass]],
      Metrics: [{ Name: METRIC.faults, Unit: 'Count' }],
    });
  }
  const fields = Object.fromEntries(Object.entries(line.fields).filter(([, value]) => value !== undefined));
  return {
    timestamp: now.toISOString(),
    level: line.level,
    message: line.message,
    ...(line.requestId ? { requestId: line.requestId } : {}),
    ...fields,
    [DIMENSIONS.service]: line.service,
    ...(line.language !== undefined && values[METRIC.joined] !== undefined
      ? { [DIMENSIONS.language]: line.language }
      : {}),
    ...(line.faultClass !== undefined ? { [DIMENSIONS.faultClass]: line.faultClass } : {}),
    ...values,
    _aws: { Timestamp: now.getTime(), CloudWatchMetrics: directives },
  };
}

/**
 * Writes the line straight to standard output, one JSON object per line. Lambda's JSON log format wraps
 * what goes through `console` in a `message` string, where CloudWatch would no longer find the metrics;
 * a line written to stdout is kept as it is. It is written whatever the function's log level: it carries
 * the metrics.
 */
export function writeMetricLine(line: MetricLine): void {
  process.stdout.write(`${JSON.stringify(metricLine(line))}\n`);
}
