/**
 * The one API function (functions/api): every route of the HTTP API reaches its own handler, which answers
 * and logs as its own service; a path the API has no route for is answered 404 and reaches none.
 */
import { describe, expect, it } from 'vitest';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { apiGatewayEvent } from '../../../local/api-gateway-event';
import { functionUnderTest } from './function-under-test';

const {
  module: { handler },
  dynamo,
  logLines,
} = await functionUnderTest(
  { TABLE_NAME: 'waitlist-test', VISITOR_TABLE_NAME: 'visitors-test' },
  () => import('../../../functions/api/handler'),
);

/** A POST with a JSON body no route accepts: each handler refuses it without touching the store. */
const post = (path: string) =>
  apiGatewayEvent({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: '[]',
    sourceIp: '203.0.113.7',
    requestId: 'request-1',
    now: new Date(1_795_255_200_000),
  });

describe('the API function', () => {
  it.each([
    [WAITLIST_PATH, 'waitlist'],
    [VISIT_PATH, 'visit'],
    [CONFIRM_PATH, 'confirm'],
    [LEAVE_PATH, 'leave'],
    [LEAVE_REQUEST_PATH, 'leave-request'],
  ])('hands %s to its own handler, which logs as %s', async (path, service) => {
    const response = await handler(post(path));

    expect(response.statusCode).toBeGreaterThanOrEqual(200);
    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0] ?? '{}')).toMatchObject({ Service: service });
  });

  it.each(['/api/unknown', '/api/toString', '/api/__proto__', '/api/leave/../waitlist', '/api/waitlist/'])(
    'answers %s, a path that is no route as spelled, with 404, and no handler sees it',
    async (path) => {
      const response = await handler(post(path));

      expect(response.statusCode).toBe(404);
      expect(JSON.parse(String(response.body))).toEqual({ error: 'not_found' });
      expect(logLines).toEqual([]);
      expect(dynamo.calls()).toEqual([]);
    },
  );
});
