import * as z from 'zod/mini';
import { announcementStateKey } from '#contract/announcement-keys';
import { MIN_ANNOUNCEMENT_RATE } from '#contract/mail-pace';
import { SECONDS_PER_DAY } from '#contract/time';
import { RETENTION_DAYS } from '#contract/waitlist-table';
import { parseJsonStrictly } from '../strict-input';
import { type Announcement, announcementSchema } from './announcement-text';

const counter = z._default(z.number().check(z.int(), z.nonnegative()), 0);
const counts = z.record(z.string(), z.number());
export const stateSchema = z.object({
  email: z.string(),
  announcement: z.pipe(z.pipe(z.string(), z.transform(parseJsonStrictly)), announcementSchema),
  /** Mails per second at most; none: SES's rate. */
  rate: z.optional(z.number().check(z.gte(MIN_ANNOUNCEMENT_RATE))),
  pass: z.number().check(z.int(), z.positive()),
  /** `--resend-unknown`: sends left unknown before this pass began are owed again (audience.ts). */
  resendUnknownBefore: z.optional(z.string()),
  stopReason: z.optional(z.string()),
  /** Written once every message is queued. */
  queued: z.optional(z.object({ send: counts, skipped: counts })),
});
export type AnnouncementState = z.infer<typeof stateSchema>;

/** One recipient of one pass on the bulk queue. The key is an address: the queue is encrypted. */
export const recipientMessageSchema = z.object({
  id: z.string(),
  pass: z.number().check(z.int(), z.positive()),
  key: z.string().check(z.includes('@')),
});
export type RecipientMessage = z.infer<typeof recipientMessageSchema>;

export const progressSchema = z.object({
  sent_nl: counter,
  sent_en: counter,
  not_owed: counter,
  refused: counter,
  failed: counter,
  /** Accepted but not recorded, or no answer from SES: never sent again. */
  unrecorded: counter,
});
export type Progress = z.infer<typeof progressSchema>;

/** Kept no longer than a record. */
export function newPassState(
  announcement: Announcement,
  { rate, pass, now, resendUnknown }: { rate: number; pass: number; now: Date; resendUnknown?: boolean },
) {
  return {
    email: announcementStateKey(announcement.id),
    announcement: JSON.stringify(announcement),
    ...(Number.isFinite(rate) ? { rate } : {}),
    pass,
    ...(resendUnknown ? { resendUnknownBefore: now.toISOString() } : {}),
    expiresAt: Math.floor(now.getTime() / 1000) + RETENTION_DAYS * SECONDS_PER_DAY,
  };
}

export const processedTotal = (progress: Progress) =>
  progress.sent_nl + progress.sent_en + progress.not_owed + progress.refused + progress.unrecorded;
