import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { LOCALES } from '#contract/locales';
import { type SignupSource, SOURCE_FIELDS, sourceValue, utmSourceOf } from '#contract/signup-source';
import { SECONDS_PER_DAY } from '#contract/time';
import {
  type JoinWaitlistError,
  type JoinWaitlistRequest,
  SIGNUP_NOTE_VERSION,
} from '#contract/waitlist-api';
import {
  MAIL_RESEND_INTERVAL_MINUTES,
  MAX_CONFIRMATION_MAILS,
  PENDING_DAYS,
  type WaitlistRecord,
} from '#contract/waitlist-table';
import type { Decision, RequestForm } from '../http/http-handler';
import { isOwnOrigin, type RequestGuardSettings } from '../http/origin-guard';
import { guardedAddressBody } from '../http/post-body';
import { mailboxHashOf } from '../store/mailbox';
import { putIf, updateIf, type WaitlistStore } from '../store/store-client';

// zod/mini: the full build adds ~450 KB to the bundle.
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string()),
  // sourceValue keeps or drops these: an odd value never costs a signup.
  utmSource: z.optional(z.string()),
  utmMedium: z.optional(z.string()),
  utmCampaign: z.optional(z.string()),
  referrer: z.optional(z.string()),
}) satisfies z.ZodMiniType<JoinWaitlistRequest & SignupSource>;

// A form posted without script cannot say where its visitor came from, but its Referer is the page's own
// address, query included (strict-origin-when-cross-origin keeps it whole on the same origin). It is read
// only from one of `siteHosts` (SITE_ORIGINS) or the Host: another site's address says nothing of its links.
export function parseJoinRequest(
  event: APIGatewayProxyEventV2,
  guard: RequestGuardSettings,
):
  | { form: RequestForm; request: JoinWaitlistRequest & { key: string; source?: SignupSource } }
  | Decision<Exclude<JoinWaitlistError, 'already_registered' | 'unavailable'>> {
  const body = guardedAddressBody(event, guard, joinRequestSchema);
  if ('outcome' in body) return body;
  const { form, fields, address } = body;
  const referer = event.headers?.referer ?? '';
  // A script sends what it read itself, or nothing on purpose.
  const fallback =
    form === 'form' && referer.length <= 2_048 && isOwnOrigin(event, referer, guard.siteHosts)
      ? utmSourceOf(new URL(referer).search)
      : {};
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    const value = sourceValue(fields[field]) ?? fallback[field];
    if (value !== undefined) source[field] = value;
  }
  return {
    form,
    request: {
      email: address.email,
      key: address.key,
      language: fields.language,
      ...(fields.website === undefined ? {} : { website: fields.website }),
      ...(Object.keys(source).length > 0 ? { source } : {}),
    },
  };
}

/** Once per canonical key; the record starts pending, asking the mailer for a confirmation mail. */
export async function joinWaitlist(
  store: WaitlistStore,
  entry: Pick<WaitlistRecord, 'language' | 'source'> & { email: string; key: string },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'joined' | 'already_registered'> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const expiresAt = nowSeconds + PENDING_DAYS * SECONDS_PER_DAY;
  const record: WaitlistRecord = {
    email: entry.key,
    mailbox: mailboxHashOf(entry.key),
    emailAsEntered: entry.email,
    language: entry.language,
    createdAt: now.toISOString(),
    consentVersion: SIGNUP_NOTE_VERSION,
    ...(entry.source ? { source: entry.source } : {}),
    status: 'pending',
    expiresAt,
    mailRequestId: randomUUID(),
    mailRequestedAt: now.toISOString(),
    mailsRequested: 1,
  };
  const put = {
    Item: record,
    // An expired pending record counts as deleted (time to live takes days), unless a do-not-mail mark.
    ConditionExpression:
      'attribute_not_exists(email) OR (#status = :pending AND expiresAt < :now AND attribute_not_exists(mailSuppressed))',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending', ':now': nowSeconds },
  };
  if (await putIf(store, put, abortSignal)) return 'joined';

  // Signed up again: the mail once more, within the resend limits. Language and source stay the first
  // signup's: whoever signs up again, maybe not the owner, changes nothing the owner chose.
  const askAgain = {
    UpdateExpression:
      'SET mailRequestId = :id, mailRequestedAt = :now, mailsRequested = mailsRequested + :one, expiresAt = :expiresAt',
    ConditionExpression:
      '#status = :pending AND mailRequestedAt <= :cutoff AND mailsRequested < :max AND attribute_not_exists(mailSuppressed)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':id': randomUUID(),
      ':now': now.toISOString(),
      ':one': 1,
      ':expiresAt': expiresAt,
      ':pending': 'pending',
      ':cutoff': new Date(now.getTime() - MAIL_RESEND_INTERVAL_MINUTES * 60_000).toISOString(),
      ':max': MAX_CONFIRMATION_MAILS,
    },
  };
  await updateIf(store, entry.key, askAgain, abortSignal);
  return 'already_registered';
}
