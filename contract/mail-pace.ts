// How mail leaves (docs/deploying.md, "Capacity").

/** Of SES's maximum send rate: a timer firing a few ms late never puts one mail too many into a second. */
export const PACE_SHARE = 0.98;

/** Instances per lane (SQS's least maximum concurrency); each keeps this share of the lane's rate. */
export const MAILER_CONCURRENCY = 2;

/** The announcement's share of SES's rate: the rest lets a confirmation leave within a second or two. */
export const BULK_SHARE = 0.75;

/** A mail every 1,000 s: far slower would pass Node's longest timer (24.8 days), which fires at once. */
export const MIN_ANNOUNCEMENT_RATE = 0.001;

/** Later than this a mail is still sent, and counted (MailLate, alarmed). */
export const LATE_MAIL_MINUTES = 60;

/** SQS's longest, so a long outage loses nothing. */
export const MAIL_QUEUE_RETENTION_DAYS = 14;

/** Requests per second (burst twice that) unless `apiRateLimit` says: sized for a press spike. */
export const DEFAULT_API_RATE_LIMIT = 1_000;

// A waitlist request's time in a function, generously: 20 to 50 ms warm, the rest for tails and cold starts.
export const WAITLIST_REQUEST_SECONDS = 0.1;

/** The API function's executions busy at `rate` requests a second (rate × duration, Little's law). */
export const apiConcurrencyAt = (rate: number) => Math.ceil(rate * WAITLIST_REQUEST_SECONDS);
