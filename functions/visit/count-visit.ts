import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Locale } from '#contract/locales';
import { SECONDS_PER_DAY } from '#contract/time';
import * as visits from '#contract/visit-counting';
import { putIf, updateIf, type WaitlistStore } from '../store/store-client';

/** Once per visitor, UTC day and language; the visitor is a salted hash (#contract/visit-counting). */
export async function countVisit(
  store: WaitlistStore,
  visitorTable: string,
  visit: { clientAddress: string; userAgent: string; site: string; language: Locale },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'counted' | 'seen'> {
  const day = now.toISOString().slice(0, 10);
  const endsAt = { [visits.VISITOR_TABLE_EXPIRY_ATTRIBUTE]: Date.parse(day) / 1000 + SECONDS_PER_DAY };
  const visitors = { client: store.client, tableName: visitorTable };
  const Key = { [visits.VISITOR_TABLE_KEY.name]: visits.VISITOR_SALT_KEY };
  const storedSalt = async (ConsistentRead: boolean) => {
    const get = new GetCommand({ TableName: visitorTable, Key, ConsistentRead });
    const { Item } = await store.client.send(get, { abortSignal });
    // After a put that lost, whichever salt was put just now is the one to use.
    return (ConsistentRead || Item?.day === day) && typeof Item?.salt === 'string' ? Item.salt : undefined;
  };
  let salt = await storedSalt(false);
  // A new day's salt replaces an earlier day's only: one made elsewhere just now is read and used.
  if (salt === undefined) {
    salt = randomBytes(32).toString('base64');
    const put = {
      Item: { ...Key, day, salt, ...endsAt },
      // `day` is a DynamoDB reserved word.
      ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
      ExpressionAttributeNames: { '#day': 'day' },
      ExpressionAttributeValues: { ':day': day },
    };
    if (!(await putIf(visitors, put, abortSignal))) salt = await storedSalt(true);
    if (salt === undefined) throw new Error('the day’s salt was put elsewhere, and is not there');
  }
  const visitor = createHash('sha256')
    .update([salt, visit.clientAddress, visit.userAgent, visit.site].join('\0'))
    .digest('hex');
  const mark = {
    Item: { [visits.VISITOR_TABLE_KEY.name]: `${visit.language}:${visitor}`, ...endsAt },
    ConditionExpression: `attribute_not_exists(${visits.VISITOR_TABLE_KEY.name})`,
  };
  if (!(await putIf(visitors, mark, abortSignal))) return 'seen';
  // Should this fail, the visitor goes uncounted today: short by the logged faults, never double.
  const count = { UpdateExpression: 'ADD #language :one', ExpressionAttributeValues: { ':one': 1 } };
  const language = { ExpressionAttributeNames: { '#language': visit.language } };
  await updateIf(store, visits.visitsCounterKey(day), { ...count, ...language }, abortSignal);
  return 'counted';
}
