import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Locale } from '#contract/locales';
import { SECONDS_PER_DAY } from '#contract/time';
import {
  VISITOR_SALT_KEY,
  VISITOR_TABLE_EXPIRY_ATTRIBUTE,
  VISITOR_TABLE_KEY,
  visitsCounterKey,
} from '#contract/visit-counting';
import { WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import type { WaitlistStore } from '../store/store-client';

/**
 * Counts a visitor once per UTC day and language (#contract/visit-counting): the visitor is SHA-256 of the
 * day's salt, their IP address, user agent and the site, and only the first marker of that hash on the day
 * adds to the day's count. The address and the user agent go into the hash and nowhere else.
 */

export interface VisitStores {
  /** The waitlist table, which keeps the counts per day (visitsCounterKey). */
  counts: WaitlistStore;
  /** The visitor table: the day's salt, and the day's markers. */
  visitors: WaitlistStore;
}

export interface Visit {
  /** Hashed, never stored. */
  clientAddress: string;
  /** Hashed, never stored. */
  userAgent: string;
  /** The site visited: the same person on another site the code runs for is another visitor. */
  site: string;
  language: Locale;
}

/** `counted`: the visitor's first home page of the day in this language; `seen`: counted earlier today. */
export type VisitCount = 'counted' | 'seen';

const SALT_BYTES = 32;

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

/**
 * The day's salt: the stored one when it is this day's. Otherwise a new random one, put in place of an
 * earlier day's (a conditional put: never over this day's, which a request elsewhere may have just made,
 * and which is then read and used). The item expires when the day ends.
 */
async function saltOf(
  visitors: WaitlistStore,
  { day, endsAt }: { day: string; endsAt: number },
  abortSignal: AbortSignal | undefined,
): Promise<string> {
  const Key = { [VISITOR_TABLE_KEY.name]: VISITOR_SALT_KEY };
  const read = async (ConsistentRead: boolean) =>
    (
      await visitors.client.send(new GetCommand({ TableName: visitors.tableName, Key, ConsistentRead }), {
        abortSignal,
      })
    ).Item;
  const stored = await read(false);
  if (stored?.day === day && typeof stored.salt === 'string') return stored.salt;
  const salt = randomBytes(SALT_BYTES).toString('base64');
  try {
    await visitors.client.send(
      new PutCommand({
        TableName: visitors.tableName,
        Item: { ...Key, day, salt, [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt },
        ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
        // `day` is a DynamoDB reserved word.
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day },
      }),
      { abortSignal },
    );
    return salt;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const made = await read(true);
  if (typeof made?.salt !== 'string') throw new Error('the day’s salt was put elsewhere, and is not there');
  return made.salt;
}

/** Counts `visit` on `now`'s UTC day, unless its visitor was counted in its language that day already. */
export async function countVisit(
  stores: VisitStores,
  visit: Visit,
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<VisitCount> {
  const day = now.toISOString().slice(0, 10);
  const endsAt = Date.parse(`${day}T00:00:00.000Z`) / 1000 + SECONDS_PER_DAY;
  const salt = await saltOf(stores.visitors, { day, endsAt }, abortSignal);
  const visitor = createHash('sha256')
    .update([salt, visit.clientAddress, visit.userAgent, visit.site].join('\0'))
    .digest('hex');
  try {
    await stores.visitors.client.send(
      new PutCommand({
        TableName: stores.visitors.tableName,
        Item: {
          [VISITOR_TABLE_KEY.name]: `${visit.language}:${visitor}`,
          [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt,
        },
        ConditionExpression: 'attribute_not_exists(#key)',
        ExpressionAttributeNames: { '#key': VISITOR_TABLE_KEY.name },
      }),
      { abortSignal },
    );
  } catch (error) {
    if (isConditionFailure(error)) return 'seen';
    throw error;
  }
  // Should this fail, the marker stays and the visitor goes uncounted today: a count may fall short by the
  // faults the log shows, and never counts anyone twice.
  await stores.counts.client.send(
    new UpdateCommand({
      TableName: stores.counts.tableName,
      Key: { [WAITLIST_TABLE_KEY.name]: visitsCounterKey(day) },
      UpdateExpression: 'ADD #language :one',
      ExpressionAttributeNames: { '#language': visit.language },
      ExpressionAttributeValues: { ':one': 1 },
    }),
    { abortSignal },
  );
  return 'counted';
}
