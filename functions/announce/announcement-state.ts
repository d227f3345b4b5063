import * as z from 'zod/mini';
import { announcementStateKey } from '#contract/announcement-keys';
import { LOCALES, type Locale } from '#contract/locales';
import { MIN_ANNOUNCEMENT_RATE } from '#contract/mail-pace';
import { SECONDS_PER_DAY } from '#contract/time';
import { RETENTION_DAYS } from '#contract/waitlist-table';
import type { Announcement } from './announcement-text';

const inline = z.union([z.string(), z.object({ text: z.string(), href: z.url() })]);
const text = z.object({
  subject: z.string().check(z.minLength(1)),
  paragraphs: z.array(z.array(inline)).check(z.minLength(1)),
});
export const announcementSchema = z.object({
  id: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)),
  texts: z.object(
    Object.fromEntries(LOCALES.map((language) => [language, text])) as Record<Locale, typeof text>,
  ),
});

const counter = z._default(z.number().check(z.int(), z.nonnegative()), 0);
/**
 * What the mailer reads of an announcement being sent: the texts, the rate and the pass, as the operator's
 * tool wrote them, and why the pass stopped, if it did.
 */
export const stateSchema = z.object({
  email: z.string(),
  announcement: z.pipe(
    z.string(),
    z.transform((json, context) => {
      let parsed: ReturnType<typeof announcementSchema.safeParse> | undefined;
      try {
        parsed = announcementSchema.safeParse(JSON.parse(json));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        context.issues.push({ code: 'custom', message: 'not an announcement', input: json });
        return z.NEVER;
      }
      return parsed.data as Announcement;
    }),
  ),
  /** Mails per second at most; none: SES's rate. */
  rate: z.optional(z.number().check(z.gte(MIN_ANNOUNCEMENT_RATE))),
  pass: z.number().check(z.int(), z.positive()),
  /** `--resend-unknown`: sends left unknown before this pass began are owed again (audience.ts). */
  resendUnknownBefore: z.optional(z.string()),
  /** Set by the mailer when a fault no retry will fix stopped the pass, or by the operator (`--stop`). */
  stopReason: z.optional(z.string()),
  /** Who the pass queued, and who it skipped and why: written once every message is queued. */
  queued: z.optional(
    z.object({
      send: z.record(z.string(), z.number()),
      skipped: z.record(z.string(), z.number()),
    }),
  ),
});
export type AnnouncementState = z.infer<typeof stateSchema>;

/** What the operator's tool puts on the bulk queue: one recipient of one pass. The key is an address, kept encrypted. */
export const recipientMessageSchema = z.object({
  id: z.string(),
  pass: z.number().check(z.int(), z.positive()),
  key: z.string().check(z.includes('@')),
});
export type RecipientMessage = z.infer<typeof recipientMessageSchema>;

export const progressSchema = z.object({
  sent_nl: counter,
  sent_en: counter,
  /** Messages for people who needed none any more: sent before, left, suppressed, or a duplicate. */
  not_owed: counter,
  /** Mails the mail service refused for good: their people are marked, and never tried again. */
  refused: counter,
  /** Sends that failed and went back to the queue (or, after retries, to the dead-letter queue). */
  failed: counter,
  /**
   * Sends whose outcome is unknown (accepted by SES but not recorded, or no answer came from SES): reported
   * as unknown, never sent again.
   */
  unrecorded: counter,
});
export type Progress = z.infer<typeof progressSchema>;

/** The state of a new pass, as the tool writes it. Kept no longer than a record. */
export function newPassState(
  announcement: Announcement,
  {
    rate,
    pass,
    now,
    resendUnknown = false,
  }: { rate: number; pass: number; now: Date; resendUnknown?: boolean },
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
