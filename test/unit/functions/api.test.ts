/**
 * The API function as Lambda runs it behind CloudFront (the stack's guard settings), the table mocked: what
 * each route answers, in JSON or to a plain form, for every outcome, and the metrics its log line carries;
 * the dynalite tier proves the writes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import * as ddb from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { CONFIRM_PATH, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { EMAIL_MAX_OCTETS, emailKey } from '#contract/email-address';
import { LEAVE_PATH, LEAVE_REQUEST_PATH, LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import { METRIC, METRIC_NAMESPACE } from '#contract/metrics';
import { VISIT_PATH } from '#contract/visit-counting';
import { MAX_REQUEST_BYTES, WAITLIST_PATH } from '#contract/waitlist-api';
import { newConfirmationToken, newLinkId } from '../../../functions/confirm/confirmation-token';
import { leaveToken, newLeaveKey } from '../../../functions/leave/leave-token';
import { STORE_DEADLINE_MS } from '../../../functions/store/store-client';
import { apiGatewayEvent } from '../../../local/api-gateway-event';
import { capturedLogLines } from './captured-log';
import { pointsOf, readEmf } from './cloudwatch-emf';

const SECRET = 'a-secret-the-stack-made';
const pagesDir = mkdtempSync(join(tmpdir(), 'mandje-pages-'));
for (const language of ['nl', 'en'])
  for (const [file, placeholder] of [
    ['confirm', TOKEN_PLACEHOLDER],
    ['leave', LEAVE_TOKEN_PLACEHOLDER],
  ])
    writeFileSync(join(pagesDir, `${file}.${language}.html`), `<p lang="${language}">${placeholder}</p>`);
// Set before the import, so the module makes its DynamoDB client as it would in a container.
for (const [name, value] of Object.entries({
  TABLE_NAME: 'waitlist-test',
  VISITOR_TABLE_NAME: 'visitors-test',
  CONFIRM_PAGES_DIR: pagesDir,
  LEAVE_PAGES_DIR: pagesDir,
  ORIGIN_VERIFY_SECRET: SECRET,
  SITE_ORIGINS: 'https://mandje.nl',
}))
  vi.stubEnv(name, value);
const { handler, ANSWER_AFTER_MS } = await import('../../../functions/api/handler');
const dynamo = mockClient(ddb.DynamoDBDocumentClient);
const logLines = capturedLogLines();
beforeEach(() => {
  dynamo.reset();
});

const EDGE = { [ORIGIN_VERIFY_HEADER]: SECRET, host: 'abc.execute-api.eu-west-1.amazonaws.com' };
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const ADDRESS = 'Ann@Example.nl';

type Request = {
  path?: string;
  method?: string;
  query?: string;
  type?: string;
  body?: string;
  /** Sent base64-encoded, as API Gateway passes a body it does not take for text. */
  bytes?: Buffer;
  headers?: Record<string, string>;
};
async function call({ path = WAITLIST_PATH, method = 'POST', type = JSON_TYPE, body, ...rest }: Request) {
  const event = apiGatewayEvent({
    method,
    path,
    query: rest.query,
    headers: { ...EDGE, 'content-type': type, ...rest.headers },
    body: rest.bytes?.toString('base64') ?? body,
    isBase64Encoded: rest.bytes !== undefined,
    sourceIp: '203.0.113.7',
    requestId: 'request-1',
  });
  const result = await handler(event);
  const json = String(result.headers?.['content-type']).startsWith(JSON_TYPE);
  return { ...result, json: json ? JSON.parse(result.body ?? '') : undefined };
}
const signup = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ email: ADDRESS, language: 'nl', ...fields });
const join_ = (fields: Record<string, unknown>, request: Request = {}) =>
  call({ body: signup(fields), ...request });
const form = (fields: string, request: Request = {}) => call({ type: FORM, body: fields, ...request });
const locationOf = async (answer: ReturnType<typeof call>) => (await answer).headers?.location;
const logged = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
/** The data points of the request's one log line, as CloudWatch reads them, besides its Requests and Latency. */
const pointsBesides = (...points: string[]) => {
  expect(logLines).toHaveLength(1);
  const all = [...points, 'Latency', 'Requests'].map((point) =>
    point.includes('{') ? point : `${point}{Service=waitlist}=${point === 'Latency' ? '*' : 1}`,
  );
  expect(pointsOf(logLines[0] ?? '')).toEqual(all.sort());
};
const conditionFails = () => new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
const networkFault = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { name: 'NetworkingError', code: 'ECONNREFUSED' });

// No answer, no log line, ever holds the address: here it is checked after every request of every test.
afterEach(() => {
  for (const line of logLines) expect(line.toLowerCase()).not.toContain('ann@example');
});

describe('the routes', () => {
  it.each(['/api/toString', '/api/__proto__', '/api/leave/../waitlist'])(
    'answer %s, no route as spelled, with 404 before any handler or the store sees it',
    async (path) => {
      const answer = await call({ path, body: '{}' });
      expect([answer.statusCode, answer.json]).toEqual([404, { error: 'not_found' }]);
      expect(logLines).toEqual([]);
      expect(dynamo.calls()).toEqual([]);
    },
  );
});

describe('a signup', () => {
  it('is put once, pending, under its canonical key, answered 201 as uncached JSON, and counted by language', async () => {
    const answer = await join_({});
    expect([answer.statusCode, answer.json, answer.headers?.['cache-control']]).toEqual([
      201,
      { status: 'joined' },
      'no-store',
    ]);
    expect(dynamo.commandCalls(ddb.PutCommand)).toHaveLength(1);
    expect(logged()[0]).toMatchObject({ outcome: 'joined' });
    pointsBesides('Joined{Service=waitlist,Language=nl}=1', 'Joined');
  });

  it('of an address on the list is answered 409 already_registered', async () => {
    dynamo.on(ddb.PutCommand).rejects(conditionFails());
    dynamo.on(ddb.UpdateCommand).rejects(conditionFails());
    const answer = await join_({});
    expect([answer.statusCode, answer.json]).toEqual([409, { error: 'already_registered' }]);
    pointsBesides('AlreadyRegistered');
  });

  // The live smoke check's signups are no people: the funnel is people's.
  it('of SES’s mailbox simulator is answered as any, and not counted', async () => {
    expect((await join_({ email: 'success@simulator.amazonses.com' })).statusCode).toBe(201);
    pointsBesides();
  });

  const STATUS = {
    invalid_email: 400,
    invalid_request: 400,
    method_not_allowed: 405,
    payload_too_large: 413,
    unsupported_media_type: 415,
  };
  const over = signup({ x: 'x'.repeat(MAX_REQUEST_BYTES) }).slice(0, MAX_REQUEST_BYTES + 1);
  const repeated = `{"email":"a@x.nl","language":"nl","email":"${ADDRESS}"}`;
  it.each([
    ['an address that is none', { body: signup({ email: 'ann@' }) }, 'invalid_email'],
    ['no language', { body: signup({ language: undefined }) }, 'invalid_request'],
    ['a language of no locale', { body: signup({ language: 'de' }) }, 'invalid_request'],
    ['a source field of the wrong type', { body: signup({ utmSource: 1 }) }, 'invalid_request'],
    ['no JSON', { body: '{"email":' }, 'invalid_request'],
    ['no body', {}, 'invalid_request'],
    ['a repeated key', { body: repeated }, 'invalid_request'],
    ['bytes that are not UTF-8', { bytes: Buffer.from([0x7b, 0xff, 0x7d]) }, 'invalid_request'],
    ['a byte order mark', { body: `\ufeff${signup()}` }, 'invalid_request'],
    ['a body a byte over the limit', { body: over }, 'payload_too_large'],
    ['400 euro signs: 1,200 bytes', { body: '€'.repeat(400) }, 'payload_too_large'],
    ['text/plain', { type: 'text/plain', body: '{}' }, 'unsupported_media_type'],
    ['no content type', { type: '', body: '{}' }, 'unsupported_media_type'],
    ['a charset not UTF-8', { type: 'application/json; charset=latin1' }, 'unsupported_media_type'],
    ['two charsets', { type: 'application/json; charset=utf-8; charset=utf-8' }, 'unsupported_media_type'],
    ['a gzip body', { body: '{}', headers: { 'content-encoding': 'gzip' } }, 'unsupported_media_type'],
    ['a GET', { method: 'GET' }, 'method_not_allowed'],
  ] satisfies [string, Request, keyof typeof STATUS][])(
    'with %s is refused as %s, storing nothing, counted as invalid',
    async (_case, request, error) => {
      const answer = await call(request);
      expect([answer.statusCode, answer.json]).toEqual([STATUS[error], { error }]);
      if (error === 'method_not_allowed') expect(answer.headers?.allow).toBe('POST');
      expect(dynamo.calls()).toEqual([]);
      pointsBesides('Invalid');
    },
  );

  it('takes a body of exactly the limit, counted in bytes after base64 is decoded, and charset utf-8 in any case', async () => {
    const body = signup({ pad: '' });
    const full = body.replace('"pad":""', `"pad":"${'x'.repeat(MAX_REQUEST_BYTES - body.length)}"`);
    const type = 'Application/JSON; Charset="UTF-8"';
    expect((await call({ bytes: Buffer.from(full), type })).statusCode).toBe(201);
  });

  it('takes the longest address the rule allows, though a fullwidth domain spells it in over 600 bytes', async () => {
    const fullwidth = (text: string) =>
      text.replace(/[a-z.]/g, (letter) => String.fromCodePoint((letter.codePointAt(0) as number) + 0xfee0));
    const longest = `${'a'.repeat(64)}@${fullwidth(`${'a'.repeat(62)}.${'a'.repeat(62)}.${'a'.repeat(60)}.nl`)}`;
    expect([emailKey(longest)?.length, Buffer.byteLength(longest) > 600]).toEqual([EMAIL_MAX_OCTETS, true]);
    expect((await join_({ email: ` ${longest} ` })).statusCode).toBe(201);
  });

  it.each(['x', ' ', '\t', '\u00a0'])(
    'with the honeypot holding %j is answered as a person, and nothing is stored',
    async (website) => {
      const person = await join_({});
      dynamo.resetHistory();
      const robot = await join_({ website });
      expect(robot).toEqual(person);
      expect(dynamo.calls()).toEqual([]);
      expect(logged().at(-1)).toMatchObject({ outcome: 'ignored_honeypot', [METRIC.honeypot]: 1 });
      expect((await join_({ website: '' })).statusCode).toBe(201);
    },
  );

  const named = (name: string) => Object.assign(new Error('told by the store'), { name });
  it.each([
    ['a network fault', networkFault(), 'network', 503],
    ['throttling', named('ThrottlingException'), 'throttled', 503],
    ['a permanent fault', named('ResourceNotFoundException'), 'missing_resource', 500],
    ['a bug', new TypeError('a bug'), 'code', 500],
  ] as const)(
    'after %s is answered %i, logged by class and name only, and counted',
    async (_case, fault, faultClass, status) => {
      dynamo.on(ddb.PutCommand).rejects(fault);
      const answer = await join_({});
      const [error, level, metric] =
        status === 503 ? ['unavailable', 'WARN', 'Unavailable'] : ['internal', 'ERROR', 'Internal'];
      expect([answer.statusCode, answer.json]).toEqual([status, { error }]);
      expect(logged()[0]).toMatchObject({ level, outcome: error, errorName: fault.name });
      expect(logLines[0]).not.toContain(fault.message);
      pointsBesides(`Faults{Service=waitlist,FaultClass=${faultClass}}=1`, metric);
    },
  );

  it('gives up on a store that never answers after the deadline, with 503, aborting the request', async () => {
    vi.useFakeTimers();
    dynamo.on(ddb.PutCommand).callsFake(() => new Promise(() => {}));
    try {
      const answered = join_({});
      await vi.advanceTimersByTimeAsync(STORE_DEADLINE_MS);
      const answer = await answered;
      expect([answer.statusCode, answer.json]).toEqual([503, { error: 'unavailable' }]);
      expect(logged()[0]).toMatchObject({ errorName: 'StoreDeadlineExceeded' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes its log line in the Mandje namespace, with units, at the time of the request, in Lambda’s JSON log format', async () => {
    const before = Date.now();
    await join_({});
    const points = readEmf(logLines[0] ?? '');
    expect(new Set(points.map(({ namespace }) => namespace))).toEqual(new Set([METRIC_NAMESPACE]));
    for (const { name, unit, timestamp } of points) {
      expect(unit).toBe(name === 'Latency' ? 'Milliseconds' : 'Count');
      expect(timestamp).toBeGreaterThanOrEqual(before);
      expect(timestamp).toBeLessThanOrEqual(Date.now());
    }
    expect(logged()[0]).toMatchObject({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'INFO',
      message: 'waitlist request',
      requestId: 'request-1',
    });
  });
});

describe('a signup by plain form', () => {
  const fields = 'email=ann%40example.nl&language=nl&website=';

  it.each([
    ['has no fields', '', '/waitlist/invalid-email'],
    ['has a byte over the limit', `${fields}${'x'.repeat(MAX_REQUEST_BYTES)}`, '/waitlist/invalid-email'],
    ['has bytes that are not UTF-8', 'email=ann%FF%40example.nl&language=nl', '/waitlist/invalid-email'],
    ['fills the honeypot', `${fields}x`, '/waitlist/joined'],
  ])('that %s is sent on to %s, the address in no URL', async (_case, body, location) => {
    const answer = await form(body);
    expect([answer.statusCode, answer.headers?.location, answer.body]).toEqual([303, location, '']);
  });

  it('keeps the UTM values of its own page’s Referer, and nothing of another site’s', async () => {
    await form(fields, { headers: { referer: 'https://mandje.nl/?utm_source=flyer&utm_medium=print' } });
    await form(fields, { headers: { referer: 'https://evil.example/?utm_source=flyer' } });
    const [own, other] = dynamo.commandCalls(ddb.PutCommand).map((put) => put.args[0].input.Item?.source);
    expect([own, other]).toEqual([{ utmSource: 'flyer', utmMedium: 'print' }, undefined]);
  });
});

describe('the request guard', () => {
  it.each([
    [WAITLIST_PATH, 'waitlist'],
    [VISIT_PATH, 'visit'],
    [CONFIRM_PATH, 'confirm'],
    [LEAVE_PATH, 'leave'],
    [LEAVE_REQUEST_PATH, 'leave-request'],
  ])(
    'refuses %s around the edge (no secret) with 403, touching nothing, even a link’s GET; its own handler logs it as %s',
    async (path, service) => {
      const headers = { [ORIGIN_VERIFY_HEADER]: 'guess' };
      for (const method of ['POST', 'GET'])
        expect((await form('List-Unsubscribe=One-Click', { path, method, headers })).statusCode).toBe(403);
      expect(dynamo.calls()).toEqual([]);
      const refused = { Service: service, outcome: 'forbidden', refusal: 'not_through_edge' };
      expect(logged()[0]).toMatchObject({ ...refused, [METRIC.requests]: 1, [METRIC.forbidden]: 1 });
    },
  );

  it.each([
    [WAITLIST_PATH, 'email=ann%40example.nl&language=en', 'Signup not taken'],
    [CONFIRM_PATH, 'token=x&language=nl', 'Bevestiging niet verwerkt'],
    [LEAVE_PATH, 'token=x&language=en', 'Request not taken'],
    [LEAVE_REQUEST_PATH, 'email=ann%40example.nl&language=nl', 'Verzoek niet verwerkt'],
  ])(
    'answers a form another site posted to %s with 403 and a page in its language, storing nothing',
    async (path, body, title) => {
      const answer = await form(body, { path, headers: CROSS_SITE });
      expect(answer.statusCode).toBe(403);
      expect(answer.headers?.['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain(`<h1>${title}</h1>`);
      expect(dynamo.calls()).toEqual([]);
    },
  );

  it('answers JSON another site posted with the JSON error, and lets the site’s own origin through', async () => {
    expect((await join_({}, { headers: CROSS_SITE })).json).toEqual({ error: 'forbidden' });
    expect(dynamo.calls()).toEqual([]);
    const own = { origin: 'https://mandje.nl', 'sec-fetch-site': 'same-origin' };
    expect((await join_({}, { headers: own })).statusCode).toBe(201);
  });
});

describe('the confirmation link', () => {
  const linkId = newLinkId();
  const press = (token: string, request: Request = {}) =>
    call({ path: CONFIRM_PATH, body: JSON.stringify({ token, language: 'en' }), ...request });
  it.each(['GET', 'HEAD'])(
    'opened (%s) shows its page with the token in the form, and changes nothing',
    async (method) => {
      const { token } = newConfirmationToken(linkId);
      const open = (query: string) => call({ path: CONFIRM_PATH, method, query, headers: CROSS_SITE });
      const [page, other] = [await open(`lang=en&t=${token}`), await open('lang=xx&t=<b>')];
      const [own, fallback] =
        method === 'HEAD' ? ['', ''] : [`<p lang="en">${token}</p>`, '<p lang="nl"></p>'];
      expect([page.statusCode, page.body, other.body]).toEqual([200, own, fallback]);
      expect(dynamo.calls()).toEqual([]);
    },
  );

  it('pressed with no token this site makes, or none, says so, and the form the page that says so', async () => {
    const invalid = await press('not-a-token');
    expect([invalid.statusCode, invalid.json]).toEqual([200, { result: 'invalid' }]);
    const none = await call({ path: CONFIRM_PATH, body: '{"language":"en"}' });
    expect([none.statusCode, none.json]).toEqual([400, { error: 'invalid_request' }]);
    const confirmForm = (body: string) => locationOf(form(body, { path: CONFIRM_PATH }));
    expect(await confirmForm('token=x&language=en')).toBe('/en/confirm/invalid');
    expect(await confirmForm('language=en')).toBe('/confirm/invalid');
  });

  it('after a store fault answers 503, and the form the try-again page', async () => {
    const { token } = newConfirmationToken(linkId);
    dynamo.on(ddb.QueryCommand).resolves({ Items: [{ email: 'ann@example.nl', status: 'pending' }] });
    dynamo.on(ddb.UpdateCommand).rejects(networkFault());
    expect((await press(token)).statusCode).toBe(503);
    expect(await locationOf(press(token, { type: FORM, body: `token=${token}` }))).toBe('/confirm/try-again');
  });
});

describe('the leave link', () => {
  const linkId = newLinkId();
  const leaveKey = newLeaveKey();
  const token = leaveToken(linkId, leaveKey);
  const oneClick = (request: Request = {}) =>
    form('List-Unsubscribe=One-Click', {
      path: LEAVE_PATH,
      query: `lang=en&t=${token}`,
      headers: { origin: 'https://mail.example', 'sec-fetch-site': 'cross-site' },
      ...request,
    });
  const onTheList = () => {
    dynamo.on(ddb.QueryCommand).resolves({ Items: [{ email: 'ann@example.nl' }] });
    dynamo.on(ddb.GetCommand).resolves({
      Item: { email: 'ann@example.nl', tokenHash: newConfirmationToken(linkId).linkHash, leaveKey },
    });
    dynamo
      .on(ddb.DeleteCommand)
      .resolves({ Attributes: { createdAt: '2026-11-20T10:00:00.000Z', expiresAt: 4e9 } });
  };

  it('posted one-click from a mail provider removes the person, counted, with a short text in the link’s language', async () => {
    onTheList();
    const answer = await oneClick();
    expect([answer.statusCode, answer.headers?.['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(answer.body).toBe('You’ve left the Mandje waitlist. We won’t email you again.\n');
    expect(dynamo.commandCalls(ddb.DeleteCommand)).toHaveLength(1);
    expect(logged()[0]).toMatchObject({ form: 'one-click', outcome: 'left', [METRIC.left]: 1 });
    expect(logLines[0]).not.toContain(token);
  });

  it('posted one-click as multipart, base64 as API Gateway passes it, is taken too', async () => {
    onTheList();
    const bytes = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
    );
    expect((await oneClick({ type: 'multipart/form-data; boundary=b', bytes })).body).toMatch(
      /left the Mandje/,
    );
  });

  it('answers an unknown token exactly as a real one, in every form', async () => {
    dynamo.on(ddb.QueryCommand).resolves({ Items: [] });
    expect((await oneClick()).statusCode).toBe(200);
    const script = await call({ path: LEAVE_PATH, body: JSON.stringify({ token }) });
    expect([script.statusCode, script.json]).toEqual([200, { result: 'done' }]);
    expect(await locationOf(form(`token=${token}&language=en`, { path: LEAVE_PATH }))).toBe('/en/leave/done');
    expect(logged().map((line) => line.outcome)).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it('after a store fault says so: 503, or the try-again page', async () => {
    dynamo.on(ddb.QueryCommand).rejects(networkFault());
    const answer = await oneClick();
    expect([answer.statusCode, answer.body]).toEqual([
      503,
      'That didn’t work just now. Please try again later.\n',
    ]);
    expect(await locationOf(form(`token=${token}&language=en`, { path: LEAVE_PATH }))).toBe(
      '/en/leave/try-again',
    );
  });

  it('without a token is a bad request, and other methods 405, as at the confirmation link', async () => {
    expect((await call({ path: LEAVE_PATH, body: '{}' })).statusCode).toBe(400);
    expect((await call({ path: LEAVE_PATH, method: 'DELETE' })).headers?.allow).toBe('GET, HEAD, POST');
    expect((await call({ path: CONFIRM_PATH, method: 'PUT' })).headers?.allow).toBe('GET, HEAD, POST');
    expect(dynamo.calls()).toEqual([]);
  });
});

describe('asking for a leave link', () => {
  const ask = (body: string, type = JSON_TYPE) => call({ path: LEAVE_REQUEST_PATH, type, body });

  it(`answers any valid address alike, and no sooner than ${ANSWER_AFTER_MS} ms`, async () => {
    dynamo.on(ddb.QueryCommand).resolves({ Items: [] });
    dynamo.on(ddb.GetCommand).resolves({});
    vi.useFakeTimers();
    try {
      let answered = false;
      const answer = ask(JSON.stringify({ email: ADDRESS })).finally(() => {
        answered = true;
      });
      await vi.advanceTimersByTimeAsync(ANSWER_AFTER_MS - 1);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await answer.then((result) => [result.statusCode, result.json])).toEqual([
        202,
        { status: 'requested' },
      ]);
      const byForm = locationOf(ask('email=ann%40example.nl&language=en', FORM));
      await vi.advanceTimersByTimeAsync(ANSWER_AFTER_MS);
      expect(await byForm).toBe('/en/leave/requested');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses an address that is none: 400, or the form the try-again page', async () => {
    expect((await ask(JSON.stringify({ email: 'ann@' }))).json).toEqual({ error: 'invalid_email' });
    expect(await locationOf(ask('email=ann&language=en', FORM))).toBe('/en/leave/try-again');
    expect(dynamo.calls()).toEqual([]);
  });
});
