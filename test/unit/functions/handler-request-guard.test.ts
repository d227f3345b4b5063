/**
 * The guard as the functions run it, with the settings the stack gives them (ORIGIN_VERIFY_SECRET,
 * SITE_ORIGINS): refused before the store is asked anything, answered in the form the request came in,
 * and counted. Also what both functions make of a JSON body with a repeated key, and HEAD on the link.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { CONFIRM_PATH, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { METRIC } from '#contract/metrics';
import { capturedLogLines } from './captured-log';
import { httpApiEvent } from './http-api-event';

const SECRET = 'a-secret-the-stack-made';
const pagesDir = mkdtempSync(join(tmpdir(), 'mandje-confirm-pages-'));
for (const language of ['nl', 'en'])
  writeFileSync(
    join(pagesDir, `confirm.${language}.html`),
    `<html lang="${language}">${TOKEN_PLACEHOLDER}</html>`,
  );
vi.stubEnv('TABLE_NAME', 'waitlist-test');
vi.stubEnv('VISITOR_TABLE_NAME', 'visitors-test');
vi.stubEnv('CONFIRM_PAGES_DIR', pagesDir);
vi.stubEnv('ORIGIN_VERIFY_SECRET', SECRET);
vi.stubEnv('SITE_ORIGINS', 'https://mandje.nl');
const waitlist = (await import('../../../functions/waitlist/handler')).handler;
const confirm = (await import('../../../functions/confirm/handler')).handler;

const dynamo = mockClient(DynamoDBDocumentClient);
const logLines = capturedLogLines();
beforeEach(() => {
  dynamo.reset();
});

const THROUGH_CLOUDFRONT = {
  [ORIGIN_VERIFY_HEADER]: SECRET,
  host: 'abc.execute-api.eu-west-1.amazonaws.com',
};
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

function post(
  path: string,
  body: string,
  headers: Record<string, string>,
  contentType = 'application/x-www-form-urlencoded',
): APIGatewayProxyEventV2 {
  const event = httpApiEvent({ contentType, body });
  event.rawPath = path;
  event.requestContext.http.path = path;
  event.headers = { ...event.headers, ...headers };
  return event;
}

const metricsLogged = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a request that did not come through CloudFront', () => {
  it('is refused with 403 forbidden before its body is read, and counted', async () => {
    const result = await waitlist(
      post('/api/waitlist', '{"email":"ann@example.nl","language":"nl"}', {}, 'application/json'),
    );

    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'forbidden' });
    expect(dynamo.calls()).toHaveLength(0);
    expect(metricsLogged()).toEqual([
      expect.objectContaining({ [METRIC.forbidden]: 1, refusal: 'not_through_edge', status: 403 }),
    ]);
  });

  it('gets no confirmation page either, and a form post no page of its own', async () => {
    const link = httpApiEvent({ method: 'GET' });
    link.rawQueryString = 'lang=nl&t=abc';
    const opened = await confirm(link);
    const pressed = await confirm(post(CONFIRM_PATH, 'token=abc&language=en', {}));

    expect(opened.statusCode).toBe(403);
    expect(opened.body).not.toContain('<html');
    expect(pressed.statusCode).toBe(403);
    expect(JSON.parse(pressed.body ?? '')).toEqual({ error: 'forbidden' });
    expect(dynamo.calls()).toHaveLength(0);
  });
});

describe('a form another site posted', () => {
  it.each([
    ['nl', '/', 'Je aanmelding is niet aangenomen, omdat het formulier van een andere website kwam'],
    ['en', '/en/', 'Your signup was not taken, because the form came from another website'],
  ])(
    'to the waitlist gets 403 and a page in its language (%s), and nothing is stored',
    async (language, home, says) => {
      const result = await waitlist(
        post('/api/waitlist', `email=ann%40example.nl&language=${language}`, {
          ...THROUGH_CLOUDFRONT,
          ...CROSS_SITE,
        }),
      );

      expect(result.statusCode).toBe(403);
      expect(result.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      expect(result.body).toContain(`<html lang="${language}">`);
      expect(result.body).toContain(says);
      expect(result.body).toContain(`<a href="${home}">`);
      expect(result.body).not.toMatch(/<script|<style|style=/);
      expect(dynamo.calls()).toHaveLength(0);
      expect(metricsLogged()).toEqual([
        expect.objectContaining({ [METRIC.forbidden]: 1, refusal: 'cross_site' }),
      ]);
    },
  );

  it('to confirm gets 403 and a page that says the confirmation was not taken', async () => {
    const result = await confirm(
      post(CONFIRM_PATH, 'token=abc&language=en', { ...THROUGH_CLOUDFRONT, origin: 'null' }),
    );

    expect(result.statusCode).toBe(403);
    expect(result.body).toContain('<html lang="en">');
    expect(result.body).toContain('Your confirmation was not taken');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('with JSON gets the JSON error', async () => {
    const result = await waitlist(
      post(
        '/api/waitlist',
        '{"email":"ann@example.nl","language":"en"}',
        { ...THROUGH_CLOUDFRONT, ...CROSS_SITE },
        'application/json',
      ),
    );

    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'forbidden' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('is told apart from the site’s own form, which goes on to the store', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await waitlist(
      post('/api/waitlist', 'email=ann%40example.nl&language=nl', {
        ...THROUGH_CLOUDFRONT,
        origin: 'https://mandje.nl',
        'sec-fetch-site': 'same-origin',
      }),
    );

    expect(result.statusCode).toBe(303);
    expect(dynamo.calls().length).toBeGreaterThan(0);
  });
});

describe('a JSON body with a repeated key', () => {
  it('is 400 invalid_request at the waitlist, whichever address came last', async () => {
    const result = await waitlist(
      post(
        '/api/waitlist',
        '{"email":"ann@example.nl","language":"nl","email":"bob@example.nl"}',
        THROUGH_CLOUDFRONT,
        'application/json',
      ),
    );

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'invalid_request' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('is 400 invalid_request at confirm', async () => {
    const result = await confirm(
      post(CONFIRM_PATH, '{"token":"abc","token":"def"}', THROUGH_CLOUDFRONT, 'application/json'),
    );

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'invalid_request' });
    expect(dynamo.calls()).toHaveLength(0);
  });
});

describe('HEAD on the confirmation link', () => {
  const link = (method: string) => {
    const event = httpApiEvent({ method });
    event.rawPath = CONFIRM_PATH;
    event.rawQueryString = 'lang=en&t=abc';
    event.headers = { ...THROUGH_CLOUDFRONT };
    return event;
  };

  it('answers with GET’s status and headers, no body, and touches nothing', async () => {
    const get = await confirm(link('GET'));
    const head = await confirm(link('HEAD'));

    expect(get.body).toContain('<html lang="en">');
    expect(head.statusCode).toBe(get.statusCode);
    expect(head.headers).toEqual(get.headers);
    expect(head.body ?? '').toBe('');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('is named in Allow when another method is refused', async () => {
    const result = await confirm(link('PUT'));

    expect(result.statusCode).toBe(405);
    expect(result.headers).toMatchObject({ allow: 'GET, HEAD, POST' });
  });
});
