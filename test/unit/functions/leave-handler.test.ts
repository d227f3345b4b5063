/**
 * `/api/leave` as Lambda runs it, the table mocked, with the guard's settings the stack gives it: opening
 * the link shows the page and removes no one; a mail client's one-click POST, the page's plain form and its
 * script each remove the person and get their own kind of answer, the same whoever the token was.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { LEAVE_PATH, LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import { METRIC } from '#contract/metrics';
import { LEFT_COUNTER_KEY } from '#contract/waitlist-table';
import { hashOfLinkId, newLinkId } from '../../../functions/confirm/confirmation-token';
import { leaveToken, newLeaveKey } from '../../../functions/leave/leave-token';
import { functionUnderTest } from './function-under-test';
import { httpApiEvent } from './http-api-event';

const SECRET = 'a-secret-the-stack-made';
const pagesDir = mkdtempSync(join(tmpdir(), 'mandje-leave-pages-'));
for (const language of ['nl', 'en'])
  writeFileSync(
    join(pagesDir, `leave.${language}.html`),
    `<html lang="${language}"><input value="${LEAVE_TOKEN_PLACEHOLDER}"></html>`,
  );
const {
  module: { handler },
  dynamo,
  logLines,
} = await functionUnderTest(
  {
    TABLE_NAME: 'waitlist-test',
    LEAVE_PAGES_DIR: pagesDir,
    ORIGIN_VERIFY_SECRET: SECRET,
    SITE_ORIGINS: 'https://mandje.nl',
  },
  () => import('../../../functions/leave/handler'),
);

const THROUGH_CLOUDFRONT = {
  [ORIGIN_VERIFY_HEADER]: SECRET,
  host: 'abc.execute-api.eu-west-1.amazonaws.com',
};
const CROSS_SITE = { origin: 'https://mail.example', 'sec-fetch-site': 'cross-site' };
const FORM = 'application/x-www-form-urlencoded';
const ONE_CLICK = 'List-Unsubscribe=One-Click';

const linkId = newLinkId();
const leaveKey = newLeaveKey();
const TOKEN = leaveToken(linkId, leaveKey);
const RECORD = { email: 'ann@example.nl', leaveKey, createdAt: '2026-11-20T10:00:00.000Z', expiresAt: 4e9 };

function request({
  method = 'POST',
  query = '',
  contentType = FORM,
  body,
  headers = {},
  base64 = false,
}: {
  method?: string;
  query?: string;
  contentType?: string;
  body?: string;
  headers?: Record<string, string>;
  base64?: boolean;
}): Promise<{ statusCode?: number; headers?: Record<string, unknown>; body?: string }> {
  const event: APIGatewayProxyEventV2 = httpApiEvent({
    method,
    contentType,
    body: body === undefined ? undefined : base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
  });
  event.rawPath = LEAVE_PATH;
  event.requestContext.http.path = LEAVE_PATH;
  event.rawQueryString = query;
  event.headers = { ...event.headers, ...THROUGH_CLOUDFRONT, ...headers };
  return handler(event) as Promise<{ statusCode?: number; headers?: Record<string, unknown>; body?: string }>;
}

/** The table holds the person the token belongs to. */
function personOnTheList(): void {
  dynamo.on(QueryCommand).resolves({ Items: [{ email: RECORD.email }] });
  dynamo.on(GetCommand).resolves({ Item: { tokenHash: hashOfLinkId(linkId), leaveKey } });
  dynamo.on(DeleteCommand).resolves({ Attributes: RECORD });
  dynamo.on(UpdateCommand).resolves({});
}
/** The token finds a record, but not one it may remove (used up, or another leave key). */
function nobodyToRemove(): void {
  dynamo.on(QueryCommand).resolves({ Items: [{ email: RECORD.email }] });
  dynamo.on(GetCommand).resolves({ Item: { tokenHash: hashOfLinkId(linkId), leaveKey } });
  dynamo.on(DeleteCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
}
const removed = () => dynamo.commandCalls(DeleteCommand).length === 1;
const multipart = (boundary: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;

describe('opening a leave link', () => {
  it.each(['GET', 'HEAD'])(
    '%s shows the page in the link’s language with the token in its form, and removes no one',
    async (method) => {
      const page = await request({ method, query: `lang=en&t=${TOKEN}`, body: undefined });

      expect(page.statusCode).toBe(200);
      expect(page.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      expect(page.body).toBe(method === 'HEAD' ? '' : `<html lang="en"><input value="${TOKEN}"></html>`);
      expect(dynamo.calls()).toHaveLength(0);
    },
  );

  it('shows the Dutch page for any other language, and leaves out a token that is not base64url', async () => {
    const page = await request({ method: 'GET', query: 'lang=de&t="><script>alert(1)</script>' });

    expect(page.body).toBe('<html lang="nl"><input value=""></html>');
  });

  it('even from another site: opening a link is cross-site by nature', async () => {
    const page = await request({ method: 'GET', query: `t=${TOKEN}`, headers: CROSS_SITE });

    expect(page.statusCode).toBe(200);
  });
});

describe('a mail client’s one-click POST (RFC 8058)', () => {
  it('removes the person the link’s token belongs to, counts them, and answers 200 with a short text', async () => {
    personOnTheList();

    const answer = await request({ query: `lang=en&t=${TOKEN}`, body: ONE_CLICK });

    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    });
    expect(answer.body).toMatch(/left the Mandje waitlist/);
    expect(dynamo.commandCalls(DeleteCommand)[0]?.args[0].input.Key).toEqual({ email: RECORD.email });
    expect(dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toContainEqual({
      email: LEFT_COUNTER_KEY,
    });
  });

  it('answers a used, forged or unknown token exactly as a real one', async () => {
    personOnTheList();
    const real = await request({ query: `lang=nl&t=${TOKEN}`, body: ONE_CLICK });
    dynamo.reset();
    nobodyToRemove();
    const used = await request({ query: `lang=nl&t=${TOKEN}`, body: ONE_CLICK });
    dynamo.reset();
    dynamo.on(QueryCommand).resolves({ Items: [] });
    const unknown = await request({
      query: `lang=nl&t=${leaveToken(newLinkId(), newLeaveKey())}`,
      body: ONE_CLICK,
    });
    const forged = await request({ query: 'lang=nl&t=forged', body: ONE_CLICK });

    for (const answer of [used, unknown, forged]) expect(answer).toEqual(real);
  });

  it('accepts the body as multipart/form-data, and base64-encoded as API Gateway passes it', async () => {
    personOnTheList();

    const answer = await request({
      query: `t=${TOKEN}`,
      contentType: 'multipart/form-data; boundary=----mail-client',
      body: multipart('----mail-client'),
      base64: true,
    });

    expect(answer.statusCode).toBe(200);
    expect(removed()).toBe(true);
  });

  it('is taken from another site’s servers or webmail: the token, not the origin, authorises it', async () => {
    personOnTheList();

    const answer = await request({ query: `t=${TOKEN}`, body: ONE_CLICK, headers: CROSS_SITE });

    expect(answer.statusCode).toBe(200);
    expect(removed()).toBe(true);
  });

  it('is refused around the edge: without CloudFront’s secret nothing is removed', async () => {
    personOnTheList();

    const answer = await request({
      query: `t=${TOKEN}`,
      body: ONE_CLICK,
      headers: { [ORIGIN_VERIFY_HEADER]: 'guess' },
    });

    expect(answer.statusCode).toBe(403);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('without a token in the link is refused as a bad request', async () => {
    const answer = await request({ body: ONE_CLICK });

    expect(answer.statusCode).toBe(400);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('after a store fault says so with 503, for the client to try again', async () => {
    dynamo.on(QueryCommand).rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));

    const answer = await request({ query: `t=${TOKEN}`, body: ONE_CLICK });

    expect(answer.statusCode).toBe(503);
  });
});

describe('the leave page’s button', () => {
  it('as a plain form post removes the person and sends the browser on to the done page in its language', async () => {
    personOnTheList();

    const answer = await request({ body: `token=${TOKEN}&language=en` });

    expect(answer.statusCode).toBe(303);
    expect(answer.headers).toMatchObject({ location: '/en/leave/done', 'cache-control': 'no-store' });
    expect(removed()).toBe(true);
  });

  it('sends an unknown or used token to the same done page', async () => {
    nobodyToRemove();

    const answer = await request({ body: `token=${TOKEN}&language=nl` });

    expect(answer.statusCode).toBe(303);
    expect(answer.headers?.location).toBe('/leave/done');
  });

  it('after a fault sends the plain form on to the try-again page', async () => {
    dynamo.on(QueryCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));

    const answer = await request({ body: `token=${TOKEN}&language=en` });

    expect(answer.headers?.location).toBe('/en/leave/try-again');
  });

  it('from the script gets JSON: done, whoever the token belonged to', async () => {
    personOnTheList();
    const real = await request({ contentType: 'application/json', body: JSON.stringify({ token: TOKEN }) });
    dynamo.reset();
    nobodyToRemove();
    const used = await request({ contentType: 'application/json', body: JSON.stringify({ token: TOKEN }) });

    expect(real).toMatchObject({ statusCode: 200, body: '{"result":"done"}' });
    expect(used).toEqual(real);
  });

  it('is refused when another site’s page posted it', async () => {
    personOnTheList();

    const answer = await request({ body: `token=${TOKEN}&language=en`, headers: CROSS_SITE });

    expect(answer.statusCode).toBe(403);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('refuses other methods with 405', async () => {
    const answer = await request({ method: 'PUT', contentType: 'application/json', body: '{}' });

    expect(answer.statusCode).toBe(405);
    expect(answer.headers?.allow).toBe('GET, HEAD, POST');
  });
});

describe('what it logs', () => {
  it('one line per request with its metrics, never the token or an address', async () => {
    personOnTheList();
    await request({ query: `t=${TOKEN}`, body: ONE_CLICK });
    await request({ body: `token=${TOKEN}`, headers: CROSS_SITE });

    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      Service: 'leave',
      outcome: 'left',
      form: 'one-click',
      [METRIC.requests]: 1,
    });
    expect(lines[1]).toMatchObject({ outcome: 'forbidden', refusal: 'cross_site', [METRIC.forbidden]: 1 });
    for (const line of logLines) {
      expect(line).not.toContain(TOKEN);
      expect(line).not.toContain(RECORD.email);
    }
  });
});
