import * as z from 'zod/mini';
import { announcementStateKey, PLANNING_PHASE } from '#contract/announcement-keys';
import { LOCALES, type Locale } from '#contract/locales';
import { SECONDS_PER_DAY } from '#contract/time';
import { RETENTION_DAYS } from '#contract/waitlist-table';
import type { Announcement } from './announcement-text';
import { type AudienceCount, SKIP_REASONS, type SkipReason } from './audience';

export const PHASES = [PLANNING_PHASE, 'sending', 'stopped'] as const;

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
  rate: z.number().check(z.positive()),
  pass: z.number().check(z.int(), z.positive()),
  phase: z.enum(PHASES),
  scanFrom: z.optional(z.string()),
  /** `--resend-unknown`: sends left unknown before this pass began are owed again (audience.ts). */
  resendUnknownBefore: z.optional(z.string()),
  stopReason: z.optional(z.string()),
  startedAt: z.string(),
  updatedAt: z.string(),
  planned_nl: counter,
  planned_en: counter,
  ...Object.fromEntries(SKIP_REASONS.map((reason) => [`skipped_${reason}`, counter])),
});
export type AnnouncementState = z.infer<typeof stateSchema> & Record<`skipped_${SkipReason}`, number>;

/** What the planner puts on the queue: one recipient of one pass. The key is an address, kept encrypted. */
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
  /** Sends that failed and went back to the queue (or, after retries, to the dead-letter queue). */
  failed: counter,
  /**
   * Sends whose outcome is unknown (accepted by SES but not recorded, or no answer came from SES): reported
   * as unknown, never sent again.
   */
  unrecorded: counter,
  /** When the sender last counted: a pass is under way while this moves. */
  updatedAt: z.optional(z.string()),
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
  const counters = Object.fromEntries([
    ...LOCALES.map((language) => [`planned_${language}`, 0]),
    ...SKIP_REASONS.map((reason) => [`skipped_${reason}`, 0]),
  ]);
  return {
    email: announcementStateKey(announcement.id),
    announcement: JSON.stringify(announcement),
    rate,
    pass,
    phase: PLANNING_PHASE,
    startedAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...(resendUnknown ? { resendUnknownBefore: now.toISOString() } : {}),
    expiresAt: Math.floor(now.getTime() / 1000) + RETENTION_DAYS * SECONDS_PER_DAY,
    ...counters,
  };
}

/** The planner's counts as the state's flat counters (ADD needs top-level numbers). */
export function plannedCounters(count: AudienceCount): Record<string, number> {
  return Object.fromEntries([
    ...LOCALES.map((language) => [`planned_${language}`, count.send[language]]),
    ...SKIP_REASONS.map((reason) => [`skipped_${reason}`, count.skipped[reason]]),
  ]);
}

export const plannedTotal = (state: AnnouncementState) => state.planned_nl + state.planned_en;
export const processedTotal = (progress: Progress) =>
  progress.sent_nl + progress.sent_en + progress.not_owed + progress.unrecorded;
