import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConfirmResult } from '#contract/confirmation';
import { SECONDS_PER_DAY } from '#contract/time';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { RETENTION_DAYS, TOKEN_INDEX, type WaitlistRecord } from '#contract/waitlist-table';
import { recordOfLink } from '../store/link-keys';
import type { WaitlistStore } from '../store/store-client';
import { checkConfirmationToken, type TokenHashes } from './confirmation-token';

/**
 * What pressing the confirmation button with `token` does. A pending record that mailed this token, is
 * not past its expiry and may still be mailed becomes confirmed (when, and the version of the text the
 * person confirmed), and is then kept as long as the privacy notice says (RETENTION_DAYS after joining).
 * Every other token gets its own result; none of them says anything about an address the token does not
 * belong to. Store failures are thrown.
 *
 * A token that confirmed its signup says so ever after, also once it is past its days and also when two
 * presses cross: the index is read eventually consistent, so the one record is read again, consistently,
 * before a press that lost is called anything else.
 */
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
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: record.email },
        UpdateExpression:
          'SET #status = :confirmed, confirmedAt = :now, confirmedConsentVersion = :version, expiresAt = :expiresAt REMOVE mailRequestId, mailRequestedAt, mailsRequested, mailedRequestId',
        // A token this record mailed, still pending and in time, and a mailbox that may be written to.
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
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return resultOfRecord(await readRecord(store, record.email, abortSignal), check, now);
  }
  return 'confirmed';
}

type CheckedRecord = Pick<
  WaitlistRecord,
  'status' | 'tokenHash' | 'mailTokenHashes' | 'pendingTokenHash' | 'expiresAt' | 'mailSuppressed'
>;

/**
 * What a token that did not confirm anything just now means for the record it points at, read as it is
 * now: confirmed with one of its links, a link of its own that is out of time, or nothing this token
 * can speak of.
 */
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

/** The record under `key`, read as it is now. */
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
