import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { API_ERROR_STATUS } from '#contract/http-status';
import { isLocale, type Locale } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { SECONDS_PER_DAY } from '#contract/time';
import {
  isRobotUserAgent,
  VISIT_LANGUAGE_PARAMETER,
  VISITOR_SALT_KEY,
  VISITOR_TABLE_EXPIRY_ATTRIBUTE,
  VISITOR_TABLE_KEY,
  visitsCounterKey,
} from '#contract/visit-counting';
import { WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault } from '../http/http-handler';
import { type RequestGuardSettings, refusalOf } from '../http/request-guard';
import { unlessConditionFails, type WaitlistStore } from '../store/store-client';

/** Once per visitor, UTC day and language; the visitor is a salted hash (#contract/visit-counting). */
export async function countVisit(
  store: WaitlistStore,
  visitorTable: string,
  visit: { clientAddress: string; userAgent: string; site: string; language: Locale },
  { now = new Date(), abortSignal }: { now?: Date; abortSignal?: AbortSignal } = {},
): Promise<'counted' | 'seen'> {
  const day = now.toISOString().slice(0, 10);
  const endsAt = Date.parse(`${day}T00:00:00.000Z`) / 1000 + SECONDS_PER_DAY;
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
    const put = store.client.send(
      new PutCommand({
        TableName: visitorTable,
        Item: { ...Key, day, salt, [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt },
        ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
        // `day` is a DynamoDB reserved word.
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day },
      }),
      { abortSignal },
    );
    if (!(await unlessConditionFails(put))) salt = (await read(true))?.salt;
    if (typeof salt !== 'string') throw new Error('the day’s salt was put elsewhere, and is not there');
  }
  const visitor = createHash('sha256')
    .update([salt, visit.clientAddress, visit.userAgent, visit.site].join('\0'))
    .digest('hex');
  const marked = store.client.send(
    new PutCommand({
      TableName: visitorTable,
      Item: {
        [VISITOR_TABLE_KEY.name]: `${visit.language}:${visitor}`,
        [VISITOR_TABLE_EXPIRY_ATTRIBUTE]: endsAt,
      },
      ConditionExpression: 'attribute_not_exists(#key)',
      ExpressionAttributeNames: { '#key': VISITOR_TABLE_KEY.name },
    }),
    { abortSignal },
  );
  if (!(await unlessConditionFails(marked))) return 'seen';
  // Should this fail, the visitor goes uncounted today: short by the logged faults, never double.
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { [WAITLIST_TABLE_KEY.name]: visitsCounterKey(day) },
      UpdateExpression: 'ADD #language :one',
      ExpressionAttributeNames: { '#language': visit.language },
      ExpressionAttributeValues: { ':one': 1 },
    }),
    { abortSignal },
  );
  return 'counted';
}

type VisitError = 'invalid_request' | 'method_not_allowed' | 'forbidden' | 'unavailable' | 'internal';
type Outcome = 'counted' | 'seen' | 'robot' | 'no_address' | VisitError;

/** The home page's beacon, no body, answered 204. Logs never the address or user agent. */
export function visitRoute(store: WaitlistStore, visitorTable: string, guard: RequestGuardSettings) {
  async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
    const refusal = refusalOf(event, guard);
    if (refusal) return { outcome: 'forbidden', refusal };
    if (event.requestContext.http.method !== 'POST') return { outcome: 'method_not_allowed' };
    const language = new URLSearchParams(event.rawQueryString).get(VISIT_LANGUAGE_PARAMETER);
    if (!isLocale(language)) return { outcome: 'invalid_request' };
    const userAgent = event.headers?.['user-agent'] ?? '';
    if (isRobotUserAgent(userAgent)) return { outcome: 'robot', language };
    // Through CloudFront its Viewer-Address (`address:port`): API Gateway's source is CloudFront's, and
    // X-Forwarded-For begins with whatever the client wrote. Locally, the socket's address.
    const viewer = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
    const clientAddress =
      guard.originVerifySecret === undefined
        ? event.requestContext.http.sourceIp
        : viewer.slice(0, Math.max(viewer.lastIndexOf(':'), 0));
    if (!clientAddress) return { outcome: 'no_address', language };
    const visit = { clientAddress, userAgent, site: event.requestContext.domainName, language };
    const counted = await outcomeOrFault((abortSignal) =>
      countVisit(store, visitorTable, visit, { abortSignal }),
    );
    return { language, ...counted };
  }
  return httpHandler<Outcome>(
    'visit',
    { counted: METRIC.visits, seen: undefined, robot: undefined, no_address: undefined },
    decide,
    ({ outcome }) =>
      outcome === 'counted' || outcome === 'seen' || outcome === 'robot' || outcome === 'no_address'
        ? { statusCode: 204, headers: { 'cache-control': 'no-store' } }
        : jsonAnswer(API_ERROR_STATUS[outcome], { error: outcome }, 'POST'),
  );
}
