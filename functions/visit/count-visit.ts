import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Locale } from '#contract/locales';
import { SECONDS_PER_DAY } from '#contract/time';
import {
  VISITOR_SALT_KEY,
  VISITOR_TABLE_EXPIRY_ATTRIBUTE,
  VISITOR_TABLE_KEY,
  visitsCounterKey,
} from '#contract/visit-counting';
import { putIf, updateIf, type WaitlistStore } from '../store/store-client';

/** Once per visitor, UTC day and language; the visitor is a salted hash (#contract/visit-counting). */
export async function countVisit(
  store: WaitlistStore,
  visitorTable: string,
  visit: { clientAddress: string; userAgent: string; site: string; language: Locale },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'counted' | 'seen'> {
  const day = now.toISOString().slice(0, 10);
  const endsAt = Date.parse(`${day}T00:00:00.000Z`) / 1000 + SECONDS_PER_DAY;
  const visitors = { client: store.client, tableName: visitorTable };
  const Key = { [VISITOR_TABLE_KEY.name]: VISITOR_SALT_KEY };
  const read = async (ConsistentRead: boolean) => {
    const get = new GetCommand({ TableName: visitorTable, Key, ConsistentRead });
    return (await store.client.send(get, { abortSignal })).Item;
  };
  const stored = await read(false);
  let salt: unknown = stored?.day === day ? stored.salt : undefined;
  // A new day's salt replaces an earlier day's only: one made elsewhere just now is read and used.
  if (typeof salt !== 'string') {
    salt = randomBytes(32).toString('base64');
    const put = {
      Item: { ...Key, day, salt, [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt },
      ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
      // `day` is a DynamoDB reserved word.
      ExpressionAttributeNames: { '#day': 'day' },
      ExpressionAttributeValues: { ':day': day },
    };
    if (!(await putIf(visitors, put, abortSignal))) salt = (await read(true))?.salt;
    if (typeof salt !== 'string') throw new Error('the day’s salt was put elsewhere, and is not there');
  }
  const visitor = createHash('sha256')
    .update([salt, visit.clientAddress, visit.userAgent, visit.site].join('\0'))
    .digest('hex');
  const mark = {
    Item: {
      [VISITOR_TABLE_KEY.name]: `${visit.language}:${visitor}`,
      [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt,
    },
    ConditionExpression: 'attribute_not_exists(#key)',
    ExpressionAttributeNames: { '#key': VISITOR_TABLE_KEY.name },
  };
  if (!(await putIf(visitors, mark, abortSignal))) return 'seen';
  // Should this fail, the visitor goes uncounted today: short by the logged faults, never double.
  const count = {
    UpdateExpression: 'ADD #language :one',
    ExpressionAttributeNames: { '#language': visit.language },
    ExpressionAttributeValues: { ':one': 1 },
  };
  await updateIf(store, visitsCounterKey(day), count, abortSignal);
  return 'counted';
}
