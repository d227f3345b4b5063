import type { ConfirmResult } from '#contract/confirmation';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { RETENTION_DAYS, type WaitlistRecord } from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { readItem, updateIf, type WaitlistStore } from '../store/store-client';
import { checkConfirmationToken } from './confirmation-token';

// A token that confirmed says so ever after, also past its days and when two presses cross: the index is
// eventually consistent, so the record is read again, consistently, before a lost press is called otherwise.
export async function confirmSignup(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<ConfirmResult> {
  const check = checkConfirmationToken(token, now);
  if (check.problem === 'invalid') return 'invalid';
  const notConfirmed = check.ok ? 'unknown' : 'expired';
  const record = await recordOfLink(store, check.linkHash, abortSignal);
  if (!record) return notConfirmed;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const confirm = {
    UpdateExpression:
      'SET #status = :confirmed, confirmedAt = :now, confirmedConsentVersion = :version, expiresAt = :expiresAt REMOVE mailRequestId, mailRequestedAt, mailsRequested, mailedRequestId',
    ConditionExpression:
      'tokenHash = :link AND (contains(mailTokenHashes, :hash) OR pendingTokenHash = :hash) AND #status = :pending AND expiresAt >= :nowSeconds AND attribute_not_exists(mailSuppressed)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':confirmed': 'confirmed',
      ':pending': 'pending',
      ':now': now.toISOString(),
      ':nowSeconds': nowSeconds,
      ':version': SIGNUP_NOTE_VERSION,
      ':expiresAt': Math.floor(Date.parse(record.createdAt) / 1000) + RETENTION_DAYS * SECONDS_PER_DAY,
      ':link': check.linkHash,
      ':hash': check.hash,
    },
  };
  if (
    record.status !== 'confirmed' &&
    check.ok &&
    (await updateIf(store, record.email, confirm, abortSignal))
  )
    return 'confirmed';
  const stored = (await readItem(store, { email: record.email }, abortSignal)) as WaitlistRecord | undefined;
  const mailed = [...(stored?.mailTokenHashes ?? []), stored?.pendingTokenHash].includes(check.hash);
  if (!stored || stored.tokenHash !== check.linkHash || !mailed) return notConfirmed;
  if (stored.status === 'confirmed') return 'already-confirmed';
  return !stored.mailSuppressed && (!check.ok || stored.expiresAt < nowSeconds) ? 'expired' : 'unknown';
}
