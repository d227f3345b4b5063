/**
 * The guards only the runner's HTTP shows: the per-client limit, and the API path rule on paths as a client
 * spells them on the wire (the handler's own refusals are the unit tier's, test/unit/functions/api.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKey } from '#contract/email-address';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { plainRequest } from './raw-http';
import { createSiteFixture } from './site-fixture';
import { storedEmails } from './store-records';

const LIMIT = 3;
let runner: LocalRunner;
let runId = 0;
const newAddress = (label: string) => `${label}.${Date.now()}.${++runId}@example.nl`;

beforeAll(async () => {
  const { distDir } = createSiteFixture();
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir, clientPostsPerMinute: LIMIT });
});
afterAll(() => runner?.close());

const send = async (from: string, path: string, options: { method?: string; body?: string } = {}) => {
  const headers = { 'content-type': 'application/json' };
  const answer = await plainRequest(runner.url.slice(0, -1) + path, { ...options, headers, from });
  return { ...answer, body: answer.body.toString() };
};
const join_ = (from: string, path: string, email: string) =>
  send(from, path, { method: 'POST', body: JSON.stringify({ email, language: 'nl' }) });

const isStored = async (email: string) => (await storedEmails()).includes(emailKey(email) as string);

describe('the per-client limit and the API path rule', () => {
  it(`answers a client's posts past ${LIMIT} a minute with WAF's 429 page; any other spelling of a route stays 404`, async () => {
    const from = '127.0.0.2';
    // Posts until the first refusal: a minute may turn during the first LIMIT, so allow two windows.
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    let email = '';
    for (let attempt = 0; attempt <= 2 * LIMIT && !refused; attempt++) {
      email = newAddress('flood');
      const answer = await join_(from, '/api/waitlist', email);
      if (answer.status !== 201) refused = answer;
    }
    expect(refused).toMatchObject({
      status: TOO_MANY_REQUESTS_STATUS,
      headers: {
        'content-type': TOO_MANY_REQUESTS_CONTENT_TYPE,
        'retry-after': TOO_MANY_REQUESTS_RETRY_AFTER,
      },
      body: TOO_MANY_REQUESTS_HTML,
    });
    expect(await isStored(email)).toBe(false);

    const paths = ['/api/leave/../waitlist', '/api/leave/%2e%2e/waitlist', '/api/leave/..\\waitlist'];
    paths.push('/api/visit/../waitlist', '/api/waitlist/', '/api//waitlist', '/api/%77aitlist');
    for (const path of paths) {
      const address = newAddress('walk-around');
      const answer = await join_(from, path, address);
      expect([answer.status, JSON.parse(answer.body)], path).toEqual([404, { error: 'not_found' }]);
      expect(await isStored(address), path).toBe(false);
    }
    // Only POSTs to the API count: the client can still read the page, and others can still sign up.
    expect((await send(from, '/')).status).toBe(200);
    expect((await join_('127.0.0.4', '/api/waitlist', newAddress('neighbour'))).status).toBe(201);
  });
});
