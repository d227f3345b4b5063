/**
 * How mail leaves: one paced path for every mail (functions/mailer/send-slots.ts), shared by the functions,
 * the local runner, the stack's alarms and the operator's tool. See README "Capacity".
 */

/**
 * The share of SES's maximum send rate the sender aims at: a little under it, so that a timer firing a
 * few milliseconds late never puts one mail too many into a second.
 */
export const PACE_SHARE = 0.98;

/**
 * A mail that leaves longer than this after it was asked for is late: still sent, and counted (the
 * MailLate metric, and an alarm on AWS).
 */
export const LATE_MAIL_MINUTES = 60;

/** How long the mail queues keep what has not gone yet: SQS's longest, so a long outage loses nothing. */
export const MAIL_QUEUE_RETENTION_DAYS = 14;

/**
 * The API's global rate (requests per second, burst twice that) when the deploy setting `apiRateLimit`
 * does not say: sized for a spike (a newspaper piece, a TV mention), far above a normal day.
 */
export const DEFAULT_API_RATE_LIMIT = 1_000;
