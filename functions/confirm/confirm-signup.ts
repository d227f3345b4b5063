import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConfirmResult } from '#contract/confirmation';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { RETENTION_DAYS, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import { unlessConditionFails, type WaitlistStore } from '../store/store-client';
import { checkConfirmationToken, type TokenHashes } from './confirmation-token';

// A token that confirmed says so ever after, also past its days and when two presses cross: the index is
// eventually consistent, so the record is read again, consistently, before a lost press is called otherwise.
export async function confirmSignup(
  store: WaitlistStore,
  token: string,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<ConfirmResult> {
  const check = checkConfirmationToken(token, now);
  if (!check.ok && check.problem === 'invalid') return 'invalid';

  const record = await recordOfLink(store, check.linkHash, abortSignal);
  if (!record) return check.ok ? 'unknown' : 'expired';
  if (record.status === 'confirmed' || !check.ok)
    return resultOfRecord(await readRecord(store, record.email, abortSignal), check, now);

  const nowSeconds = Math.floor(now.getTime() / 1000);
  const joinedSeconds = Math.floor(Date.parse(record.createdAt) / 1000);
  const updated = await unlessConditionFails(
    store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression:
          'SET #status = :confirmed, confirmedAt = :now, confirmedConsentVersion = :version, expiresAt = :expiresAt REMOVE mailRequestId, mailRequestedAt, mailsRequested, mailedRequestId',
        ConditionExpression:
          '#link = :link AND (contains(mailTokenHashes, :hash) OR pendingTokenHash = :hash) AND #status = :pending AND expiresAt >= :nowSeconds AND attribute_not_exists(mailSuppressed)',
        ExpressionAttributeNames: { '#status': 'status', '#link': TOKEN_INDEX.key.name },
        ExpressionAttributeValues: {
          ':confirmed': 'confirmed',
          ':pending': 'pending',
          ':now': now.toISOString(),
          ':nowSeconds': nowSeconds,
          ':version': SIGNUP_NOTE_VERSION,
          ':expiresAt': joinedSeconds + RETENTION_DAYS * SECONDS_PER_DAY,
          ':link': check.linkHash,
          ':hash': check.hash,
        },
      }),
      { abortSignal },
    ),
  );
  return updated
    ? 'confirmed'
    : resultOfRecord(await readRecord(store, record.email, abortSignal), check, now);
}

type CheckedRecord = Pick<
  WaitlistRecord,
  'status' | 'tokenHash' | 'mailTokenHashes' | 'pendingTokenHash' | 'expiresAt' | 'mailSuppressed'
>;

function resultOfRecord(
  record: CheckedRecord | undefined,
  check: TokenHashes & { ok: boolean },
  now: Date,
): ConfirmResult {
  const mailedThisToken =
    record?.tokenHash === check.linkHash &&
    ((record.mailTokenHashes ?? []).includes(check.hash) || record.pendingTokenHash === check.hash);
  if (!record || !mailedThisToken) return check.ok ? 'unknown' : 'expired';
  if (record.status === 'confirmed') return 'already-confirmed';
  if (record.mailSuppressed) return 'unknown';
  const expired = !check.ok || record.expiresAt < Math.floor(now.getTime() / 1000);
  return expired ? 'expired' : 'unknown';
}

async function readRecord(
  store: WaitlistStore,
  key: string,
  abortSignal: AbortSignal | undefined,
): Promise<CheckedRecord | undefined> {
  const { Item } = await store.client.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { email: key },
      ConsistentRead: true,
      ProjectionExpression: '#status, #link, mailTokenHashes, pendingTokenHash, expiresAt, mailSuppressed',
      ExpressionAttributeNames: { '#status': 'status', '#link': TOKEN_INDEX.key.name },
    }),
    { abortSignal },
  );
  return Item as CheckedRecord | undefined;
}
