/**
 * How mail leaves: one sender for every mail (functions/mailer), keeping its pace in each instance
 * (functions/mailer/pace.ts), shared by the functions, the stack and its alarms. See docs/deploying.md, "Capacity".
 */

/**
 * The share of SES's maximum send rate the sender aims at: a little under it, so that a timer firing a
 * few milliseconds late never puts one mail too many into a second.
 */
export const PACE_SHARE = 0.98;

/**
 * How many mailer instances send each lane's mail at once on AWS (its event source's maximum concurrency,
 * SQS's least): each instance keeps this share of the lane's rate, so the lane keeps all of it.
 */
export const MAILER_CONCURRENCY = 2;

/**
 * The share of SES's rate the announcement takes. The rest is headroom for confirmations, which go at the
 * full rate when no announcement is sent: one that comes while it is leaves within a second or two.
 */
export const BULK_SHARE = 0.75;

/**
 * The slowest rate an announcement may ask for (`--rate`): a mail every 1,000 s. Far slower, the wait
 * between two mails would pass the longest timer Node keeps (about 24.8 days), which it fires at once.
 */
export const MIN_ANNOUNCEMENT_RATE = 0.001;

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
