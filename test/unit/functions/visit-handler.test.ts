/**
 * `POST /api/visit` as the waitlist function answers it behind CloudFront (ORIGIN_VERIFY_SECRET set): whose
 * address it hashes, what it refuses before the store is asked anything, and what its log line says.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { VISIT_PATH } from '#contract/visit-counting';
import { apiGatewayEvent } from '../../../local/api-gateway-event';
import { functionUnderTest } from './function-under-test';

const SECRET = 'a-secret-the-stack-made';
const {
  module: { countVisits: handler },
  dynamo,
  logLines,
} = await functionUnderTest(
  {
    TABLE_NAME: 'waitlist-test',
    VISITOR_TABLE_NAME: 'visitors-test',
    ORIGIN_VERIFY_SECRET: SECRET,
    SITE_ORIGINS: 'https://mandje.nl',
  },
  () => import('../../../functions/waitlist/handler'),
);

beforeEach(() => {
  dynamo
    .on(GetCommand)
    .resolves({ Item: { id: 'salt', day: new Date().toISOString().slice(0, 10), salt: 'salt-of-the-day' } });
});

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0';

/**
 * A beacon as CloudFront hands it to API Gateway: no body, the page's language in the query, the origin
 * secret, and the viewer's address and port.
 */
function beacon(headers: Record<string, string> = {}, query = 'lang=nl'): APIGatewayProxyEventV2 {
  return apiGatewayEvent({
    method: 'POST',
    path: VISIT_PATH,
    query,
    headers: {
      host: 'abc.execute-api.eu-west-1.amazonaws.com',
      origin: 'https://mandje.nl',
      'sec-fetch-site': 'same-origin',
      'user-agent': FIREFOX,
      'cloudfront-viewer-address': '198.51.100.23:51234',
      'x-forwarded-for': '198.51.100.23, 130.176.1.1',
      [ORIGIN_VERIFY_HEADER]: SECRET,
      ...headers,
    },
    // API Gateway's source is CloudFront's server, shared by many visitors.
    sourceIp: '130.176.1.1',
  });
}

const markerKeys = () =>
  dynamo
    .commandCalls(PutCommand)
    .map((call) => String(call.args[0].input.Item?.id))
    .filter((key) => key !== 'salt');
const lines = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a home page’s beacon through CloudFront', () => {
  it('is answered 204 with nothing, and counts the visitor once in the page’s language, with Visits by Language', async () => {
    const answer = await handler(beacon({}, 'lang=en'));

    expect(answer).toEqual({ statusCode: 204, headers: { 'cache-control': 'no-store' } });
    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input.ExpressionAttributeNames).toEqual({
      '#language': 'en',
    });
    const [line] = lines();
    expect(line).toMatchObject({
      Service: 'visit',
      outcome: 'counted',
      status: 204,
      Visits: 1,
      Language: 'en',
    });
    expect(JSON.stringify(line)).toContain('"Metrics":[{"Name":"Visits","Unit":"Count"}]');
  });

  it('tells visitors apart by the address CloudFront saw, whatever X-Forwarded-For or API Gateway’s source says', async () => {
    await handler(beacon());
    await handler(beacon({ 'x-forwarded-for': '10.9.8.7, 198.51.100.23, 130.176.1.1' }));
    await handler(beacon({ 'cloudfront-viewer-address': '[2001:db8::7]:443' }));
    await handler(beacon({ 'cloudfront-viewer-address': '2001:db8::8:51234' }));

    const [first, spoofed, ipv6, otherIpv6] = markerKeys();
    expect(spoofed).toBe(first);
    expect(new Set([first, ipv6, otherIpv6]).size).toBe(3);
  });

  it('logs no address and no user agent, only the outcome', async () => {
    await handler(beacon());

    expect(logLines.join('\n')).not.toMatch(/198\.51\.100|130\.176|Firefox|salt-of-the-day/);
  });

  it('does not count a robot that says so, and asks the store nothing', async () => {
    const answer = await handler(beacon({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }));

    expect(answer.statusCode).toBe(204);
    expect(dynamo.calls()).toEqual([]);
    expect(lines()[0]).toMatchObject({ outcome: 'robot' });
  });

  it('counts nothing when CloudFront named no viewer address, rather than count its servers', async () => {
    const event = beacon();
    delete event.headers['cloudfront-viewer-address'];

    expect((await handler(event)).statusCode).toBe(204);
    expect(dynamo.calls()).toEqual([]);
    expect(lines()[0]).toMatchObject({ outcome: 'no_address' });
  });

  it.each([
    ['made by another site’s page', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, 403],
    ['sent around the edge', { [ORIGIN_VERIFY_HEADER]: 'guessed' }, 403],
  ])('refuses a beacon %s before the store is asked anything', async (_, headers, status) => {
    const answer = await handler(beacon(headers));

    expect(answer.statusCode).toBe(status);
    expect(dynamo.calls()).toEqual([]);
    expect(lines()[0]).toMatchObject({ Service: 'visit', outcome: 'forbidden', Forbidden: 1 });
  });

  it.each([
    ['a language the site does not have', 'lang=de'],
    ['no language', ''],
  ])('refuses %s as an invalid request', async (_, query) => {
    expect((await handler(beacon({}, query))).statusCode).toBe(400);
    expect(dynamo.calls()).toEqual([]);
  });

  it('refuses anything but a POST', async () => {
    const event = beacon();
    event.requestContext.http.method = 'GET';

    const answer = await handler(event);

    expect([answer.statusCode, answer.headers?.allow]).toEqual([405, 'POST']);
    expect(dynamo.calls()).toEqual([]);
  });

  it('answers a store fault 503, counting nothing, as every route does', async () => {
    dynamo.on(GetCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));

    expect((await handler(beacon())).statusCode).toBe(503);
    expect(lines()[0]).toMatchObject({ outcome: 'unavailable', Unavailable: 1 });
  });
});
