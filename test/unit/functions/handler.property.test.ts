/**
 * Hostile input, generated: whatever an event holds, the handler answers from the contract, writes only a
 * valid request and at most once, and logs nothing of what was sent.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkEmail } from '#contract/email-address';
import { MAX_REQUEST_BYTES, SIGNUP_NOTE_VERSION, WAITLIST_HTTP_STATUS } from '#contract/waitlist-api';
import { clearLogLines, dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

// ---- What the store does with a put, chosen per generated event.
type StoreBehaviour = 'stores' | 'has_it_already' | 'fails';
const STORE_FAILURE = Object.assign(new Error('connect ECONNREFUSED'), { name: 'NetworkingError' });
let storeBehaviour: StoreBehaviour = 'stores';

beforeEach(() => {
  dynamo.on(PutCommand).callsFake(async () => {
    if (storeBehaviour === 'has_it_already')
      throw new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
    if (storeBehaviour === 'fails') throw STORE_FAILURE;
    return {};
  });
});

function arrangeStore(behaviour: StoreBehaviour): void {
  dynamo.resetHistory();
  clearLogLines();
  storeBehaviour = behaviour;
}

// ---- Generators.
const tricky = [
  'ü',
  'é',
  'ß',
  'İ',
  'Ａ',
  'مثال',
  'שלום',
  '😀',
  '👩‍👩‍👧',
  'a\u0301',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u0000',
  '\u0007',
  '\ufeff',
  '\u00a0',
  '\u2028',
  ' ',
  '\t',
  '\n',
  '.',
  '@',
  '"',
  '\\',
  ',',
  '+',
  '-',
  '=',
  '\ud800',
  '\udfff',
  '<',
  '>',
  '%00',
  '..',
  '/',
];
const piece = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...'abcdefXYZ0189_'.split('')) },
    { weight: 2, arbitrary: fc.constantFrom(...tricky) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  ),
  minLength: 0,
  maxLength: 12,
});

/** Addresses people type, robots send and attackers try: valid, unicode, mangled, too long. */
const address = fc.oneof(
  { weight: 4, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.emailAddress().map((email) => email.toUpperCase()) },
  { weight: 1, arbitrary: fc.emailAddress().map((email) => `  ${email}\t`) },
  { weight: 1, arbitrary: fc.emailAddress().map((email) => `${'a'.repeat(250)}${email}`) },
  {
    weight: 3,
    arbitrary: fc.tuple(piece, piece, piece).map(([local, domain, top]) => `${local}@${domain}.${top}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** A join request's JSON, right or subtly wrong, with extra fields now and then. */
const language = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('nl', 'en') },
  { weight: 1, arbitrary: fc.constantFrom('NL', 'de', '', 'en ', 'nl\u0000') },
  { weight: 1, arbitrary: fc.jsonValue() },
);
const website = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);
const extraFields = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});
const joinShaped = fc
  .oneof(
    { weight: 4, arbitrary: fc.record({ email: address, language, website }) },
    {
      weight: 1,
      arbitrary: fc.record({ email: fc.jsonValue(), language, website }, { requiredKeys: [] }),
    },
  )
  .chain((request) =>
    fc.oneof(fc.constant({}), extraFields).map((extra) => JSON.stringify({ ...extra, ...request })),
  );

const nested = fc
  .tuple(fc.integer({ min: 1, max: 3_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);

const huge = fc
  .tuple(fc.integer({ min: 1, max: 16 * MAX_REQUEST_BYTES }), fc.emailAddress())
  .map(([size, email]) => JSON.stringify({ email, language: 'nl', filler: 'x'.repeat(size) }));

/** The text of a body, before any encoding. */
const bodyText = fc.oneof(
  { weight: 8, arbitrary: joinShaped },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: huge },
);

const body = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ body: undefined, isBase64Encoded: false }) },
  { weight: 6, arbitrary: bodyText.map((text) => ({ body: text, isBase64Encoded: false })) },
  {
    weight: 2,
    arbitrary: bodyText.map((text) => ({
      body: Buffer.from(text, 'utf8').toString('base64'),
      isBase64Encoded: true,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 2 * MAX_REQUEST_BYTES }).map((bytes) => ({
      body: Buffer.from(bytes).toString('base64'),
      isBase64Encoded: true,
    })),
  },
  // Not base64 at all, yet flagged as such.
  { weight: 1, arbitrary: fc.string().map((text) => ({ body: text, isBase64Encoded: true })) },
);

const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON;charset=UTF-8',
      ' application/json ',
      'application/json;charset=latin1',
      'Application/Json; boundary=x; charset="utf-8"',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'application/x-www-form-urlencoded',
      'text/plain',
      'text/json',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'application/json-patch+json',
      'application/ json',
      'application/json\u0000',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const method = fc.oneof(
  { weight: 8, arbitrary: fc.constant('POST') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'post', 'POST '),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** Extra headers, some of them large (API Gateway allows 10 KB of headers). */
const extraHeaders = fc.dictionary(
  fc
    .string({ unit: fc.constantFrom(...'abcdefghijklmnop-'.split('')), minLength: 1, maxLength: 12 })
    .map((name) => `x-${name}`),
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer({ min: 0, max: 10_240 }).map((size) => 'h'.repeat(size)),
  ),
  { maxKeys: 4 },
);

const hostileEvent = fc
  .record({ method, contentType, body, extraHeaders })
  .map(({ method, contentType, body, extraHeaders }) => {
    const event = httpApiEvent({ method, contentType: contentType ?? null, ...body });
    event.headers = { ...extraHeaders, ...event.headers };
    return event;
  });

// ---- The contract, written from the API's description rather than from the handler's code.
type Expected =
  | { write: { email: string; emailAsEntered: string; language: string } }
  | { honeypot: true }
  | { error: keyof typeof WAITLIST_HTTP_STATUS };

function expectedFor(event: APIGatewayProxyEventV2): Expected {
  if (event.requestContext.http.method !== 'POST') return { error: 'method_not_allowed' };
  const mediaType = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') return { error: 'unsupported_media_type' };
  const bytes = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.byteLength > MAX_REQUEST_BYTES) return { error: 'payload_too_large' };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { error: 'invalid_request' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'invalid_request' };
  const { email, language, website } = json as Record<string, unknown>;
  if (typeof email !== 'string' || (language !== 'nl' && language !== 'en'))
    return { error: 'invalid_request' };
  if (website !== undefined && typeof website !== 'string') return { error: 'invalid_request' };
  const check = checkEmail(email);
  if (!check.ok) return { error: 'invalid_email' };
  if (website) return { honeypot: true };
  return { write: { email: check.email.toLowerCase(), emailAsEntered: check.email, language } };
}

const STORE_ANSWER = {
  stores: 'joined',
  has_it_already: 'already_registered',
  fails: 'unavailable',
} as const;
const OUTCOMES = new Set([...Object.keys(WAITLIST_HTTP_STATUS), 'ignored_honeypot']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The one log line a request may leave: fixed fields, values from fixed sets, nothing from the request. */
function expectHarmlessLog(lines: string[]): void {
  expect(lines).toHaveLength(1);
  const fields = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  expect(
    Object.keys(fields).every((key) =>
      ['message', 'outcome', 'status', 'latencyMs', 'errorName'].includes(key),
    ),
  ).toBe(true);
  expect(fields.message).toBe('waitlist request');
  expect(OUTCOMES.has(String(fields.outcome))).toBe(true);
  expect(typeof fields.status).toBe('number');
  expect(typeof fields.latencyMs).toBe('number');
  expect([undefined, STORE_FAILURE.name]).toContain(fields.errorName);
}

describe('waitlist handler under generated hostile events', () => {
  it('answers every event from the contract, writes only valid requests, once, and logs nothing sent', async () => {
    const seen = { writes: 0, honeypots: 0, errors: new Set<string>() };

    await fc.assert(
      fc.asyncProperty(
        hostileEvent,
        fc.constantFrom<StoreBehaviour>('stores', 'has_it_already', 'fails'),
        async (event, behaviour) => {
          arrangeStore(behaviour);
          const expected = expectedFor(event);

          const result = await handler(event);

          const answer = JSON.parse(result.body ?? '') as Record<string, unknown>;
          const puts = dynamo.commandCalls(PutCommand);
          if ('write' in expected) {
            seen.writes++;
            expect(dynamo.calls()).toHaveLength(1);
            expect(puts[0]?.args[0].input.Item).toEqual({
              ...expected.write,
              createdAt: expect.stringMatching(ISO_TIME),
              consentVersion: SIGNUP_NOTE_VERSION,
              expiresAt: expect.any(Number),
            });
            const outcome = STORE_ANSWER[behaviour];
            expect(answer).toEqual(outcome === 'joined' ? { status: 'joined' } : { error: outcome });
            expect(result.statusCode).toBe(WAITLIST_HTTP_STATUS[outcome]);
          } else if ('honeypot' in expected) {
            seen.honeypots++;
            expect(dynamo.calls()).toHaveLength(0);
            expect(answer).toEqual({ status: 'joined' });
            expect(result.statusCode).toBe(201);
          } else {
            seen.errors.add(expected.error);
            expect(dynamo.calls()).toHaveLength(0);
            expect(answer).toEqual({ error: expected.error });
            expect(result.statusCode).toBe(WAITLIST_HTTP_STATUS[expected.error]);
          }
          expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
          expectHarmlessLog(logLines);
        },
      ),
      { numRuns: 10_000 },
    );

    // The generators reach every branch, so none of the checks above holds for want of cases.
    expect(seen.writes).toBeGreaterThan(400);
    expect(seen.honeypots).toBeGreaterThan(50);
    expect([...seen.errors].sort()).toEqual([
      'invalid_email',
      'invalid_request',
      'method_not_allowed',
      'payload_too_large',
      'unsupported_media_type',
    ]);
  });

  it('stores any valid address lower-cased and as entered, trimmed, whatever its script', async () => {
    await fc.assert(
      fc.asyncProperty(address, fc.constantFrom('nl', 'en'), async (email, language) => {
        arrangeStore('stores');
        const check = checkEmail(email);

        const result = await handler(httpApiEvent({ body: JSON.stringify({ email, language }) }));

        const puts = dynamo.commandCalls(PutCommand);
        if (!check.ok) {
          expect(result.statusCode).toBe(400);
          expect(puts).toHaveLength(0);
          return;
        }
        expect(result.statusCode).toBe(201);
        expect(puts).toHaveLength(1);
        expect(puts[0]?.args[0].input.Item).toMatchObject({
          email: check.email.toLowerCase(),
          emailAsEntered: check.email,
          language,
        });
        expect(logLines.join('\n')).not.toContain(check.email);
      }),
      { numRuns: 2_000 },
    );
  });
});
