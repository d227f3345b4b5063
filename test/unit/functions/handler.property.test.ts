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
import { METRIC } from '#contract/metrics';
import {
  MAX_REQUEST_BYTES,
  SIGNUP_NOTE_VERSION,
  WAITLIST_HTTP_STATUS,
  WAITLIST_RESULT_OF,
  WAITLIST_RESULT_PATH,
} from '#contract/waitlist-api';
import { mailboxHashOf } from '../../../functions/store/mailbox';
import { clearLogLines, dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

// ---- What the store does with a put, chosen per generated event.
type StoreBehaviour = 'stores' | 'has_it_already' | 'fails';
const STORE_FAILURE = Object.assign(new Error('connect ECONNREFUSED'), {
  name: 'NetworkingError',
  code: 'ECONNREFUSED',
});
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

/** Each UTF-8 byte but the unreserved ones as `%XX` (encodeURIComponent throws on unpaired surrogates). */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The same fields as a form posts them: percent-encoded, now and then with broken escapes or bytes. */
const formShaped = fc
  .record(
    { email: address, language, website: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) },
    { requiredKeys: [] },
  )
  .chain((fields) =>
    fc
      .constantFrom(
        (text: string) => percentEncode(text).replaceAll('%20', '+'),
        (text: string) => percentEncode(text),
        (text: string) => text,
        (text: string) => `${percentEncode(text)}%`,
        (text: string) => `${percentEncode(text)}%C3`,
        (text: string) => `%FF${percentEncode(text)}`,
      )
      .map((encode) =>
        Object.entries(fields)
          .filter(([, value]) => value !== undefined)
          // A generated JSON value may be an object whose `toString` is data, which String() cannot print.
          .map(
            ([name, value]) => `${name}=${encode(typeof value === 'string' ? value : JSON.stringify(value))}`,
          )
          .join('&'),
      ),
  );

const nested = fc
  .tuple(fc.integer({ min: 1, max: 3_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);

const huge = fc
  .tuple(fc.integer({ min: 1, max: 16 * MAX_REQUEST_BYTES }), fc.emailAddress())
  .map(([size, email]) => JSON.stringify({ email, language: 'nl', filler: 'x'.repeat(size) }));

/** The text of a body, before any encoding. */
const bodyText = fc.oneof(
  { weight: 6, arbitrary: joinShaped },
  { weight: 3, arbitrary: formShaped },
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
      'application/json; charset=iso-8859-1',
      'Application/Json; boundary=x; charset="utf-8"',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'application/x-www-form-urlencoded;charset=windows-1252',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      '',
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

const contentEncoding = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('identity', 'IDENTITY', 'gzip', 'br', 'deflate', 'gzip, identity', ''),
  },
);

const hostileEvent = fc
  .record({ method, contentType, contentEncoding, body, extraHeaders })
  .map(({ method, contentType, contentEncoding, body, extraHeaders }) => {
    const event = httpApiEvent({ method, contentType: contentType ?? null, ...body });
    event.headers = {
      ...extraHeaders,
      ...event.headers,
      ...(contentEncoding === undefined ? {} : { 'content-encoding': contentEncoding }),
    };
    return event;
  });

// ---- The contract, written from the API's description rather than from the handler's code.
type Expected = { form: boolean; language?: string } & (
  | { write: { email: string; emailAsEntered: string; language: string } }
  | { honeypot: true }
  | { error: keyof typeof WAITLIST_HTTP_STATUS }
);

/** A form body's fields by the description: `+` is a space, `%XX` a byte, the bytes UTF-8, no field twice. */
function formFields(text: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const pair of text.split('&').filter(Boolean)) {
    const [name = '', ...rest] = pair.split('=');
    // A `%` that starts no escape is itself; decodeURIComponent throws on bytes that are not UTF-8.
    const decode = (part: string) =>
      decodeURIComponent(part.replaceAll('+', ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    let field: [string, string];
    try {
      field = [decode(name), decode(rest.join('='))];
    } catch {
      return undefined;
    }
    if (Object.hasOwn(fields, field[0])) return undefined;
    fields[field[0]] = field[1];
  }
  return fields;
}

function expectedFor(event: APIGatewayProxyEventV2): Expected {
  const [mediaType = '', ...parameters] = (event.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  const form = type === 'application/x-www-form-urlencoded';
  if (event.requestContext.http.method !== 'POST') return { form, error: 'method_not_allowed' };
  const charset = parameters
    .map((parameter) => parameter.split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replaceAll('"', '')
    .toLowerCase();
  const encoding = (event.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (
    (type !== 'application/json' && !form) ||
    (charset !== undefined && charset !== 'utf-8') ||
    !['', 'identity'].includes(encoding.replace(/\s*,\s*identity$/, ''))
  )
    return { form: false, error: 'unsupported_media_type' };
  const bytes = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.byteLength > MAX_REQUEST_BYTES) return { form, error: 'payload_too_large' };
  const text = bytes.toString('utf8');
  // Bytes that are not UTF-8 become U+FFFD when decoded leniently; encoding back then differs.
  if (!Buffer.from(text, 'utf8').equals(bytes)) return { form, error: 'invalid_request' };
  let json: unknown;
  try {
    json = form ? formFields(text) : JSON.parse(text);
  } catch {
    return { form, error: 'invalid_request' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { form, error: 'invalid_request' };
  const { email, language, website } = json as Record<string, unknown>;
  const asked = { form, ...(language === 'nl' || language === 'en' ? { language } : {}) };
  if (typeof email !== 'string' || (language !== 'nl' && language !== 'en'))
    return { ...asked, error: 'invalid_request' };
  if (website !== undefined && typeof website !== 'string') return { ...asked, error: 'invalid_request' };
  const check = checkEmail(email);
  if (!check.ok) return { ...asked, error: 'invalid_email' };
  if (website) return { ...asked, honeypot: true };
  return { ...asked, write: { email: check.key, emailAsEntered: check.email, language } };
}

const STORE_ANSWER = {
  stores: 'joined',
  has_it_already: 'already_registered',
  fails: 'unavailable',
} as const;
const OUTCOMES = new Set([...Object.keys(WAITLIST_HTTP_STATUS), 'ignored_honeypot']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The one log line a request may leave: Lambda's log fields, the metrics (CloudWatch's `_aws` and the
 * figures it names), and values from fixed sets, nothing from the request.
 */
function expectHarmlessLog(lines: string[]): void {
  expect(lines).toHaveLength(1);
  const { _aws, ...fields } = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  const known = [
    'timestamp',
    'level',
    'message',
    'requestId',
    'outcome',
    'form',
    'status',
    'errorName',
    'source',
  ];
  const dimensions = ['Service', 'Language', 'FaultClass'];
  for (const [key, value] of Object.entries(fields)) {
    if (known.includes(key) || dimensions.includes(key)) continue;
    // Anything else is a metric: a name CloudWatch is told about, with a number.
    expect(Object.values(METRIC)).toContain(key);
    expect(typeof value).toBe('number');
  }
  expect(JSON.stringify(_aws)).toMatch(/^\{"Timestamp":\d+,"CloudWatchMetrics":\[/);
  expect(fields.timestamp).toMatch(ISO_TIME);
  expect(['INFO', 'WARN']).toContain(fields.level);
  expect([undefined, 'json', 'form']).toContain(fields.form);
  expect(fields.message).toBe('waitlist request');
  expect(OUTCOMES.has(String(fields.outcome))).toBe(true);
  expect(typeof fields.status).toBe('number');
  expect(fields.Service).toBe('waitlist');
  expect([undefined, 'nl', 'en']).toContain(fields.Language);
  expect([undefined, 'network']).toContain(fields.FaultClass);
  expect([undefined, STORE_FAILURE.name]).toContain(fields.errorName);
  // These events name no source: a readable one is direct (handler-signup-source.test.ts has the rest).
  expect([undefined, 'direct']).toContain(fields.source);
}

describe('waitlist handler under generated hostile events', () => {
  it('answers every event from the contract, writes only valid requests, once, and logs nothing sent', async () => {
    const seen = { writes: 0, honeypots: 0, redirects: 0, errors: new Set<string>() };

    await fc.assert(
      fc.asyncProperty(
        hostileEvent,
        fc.constantFrom<StoreBehaviour>('stores', 'has_it_already', 'fails'),
        async (event, behaviour) => {
          arrangeStore(behaviour);
          const expected = expectedFor(event);

          const result = await handler(event);

          const puts = dynamo.commandCalls(PutCommand);
          /** The answer the contract gives for an outcome: JSON, or for a form post a redirect. */
          const expectAnswer = (outcome: keyof typeof WAITLIST_HTTP_STATUS | 'joined') => {
            const result_ = outcome in WAITLIST_RESULT_OF && expected.form;
            if (result_) {
              seen.redirects++;
              const page = WAITLIST_RESULT_OF[outcome as keyof typeof WAITLIST_RESULT_OF];
              expect(result.statusCode).toBe(303);
              expect(result.headers?.location).toBe(
                WAITLIST_RESULT_PATH[page][(expected.language as 'nl' | 'en' | undefined) ?? 'nl'],
              );
              expect(result.body).toBe('');
              return;
            }
            expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
            expect(JSON.parse(result.body ?? '')).toEqual(
              outcome === 'joined' ? { status: 'joined' } : { error: outcome },
            );
            expect(result.statusCode).toBe(WAITLIST_HTTP_STATUS[outcome]);
          };
          if ('write' in expected) {
            seen.writes++;
            // A pending address signed up again also asks for its confirmation mail once more.
            expect(dynamo.calls()).toHaveLength(behaviour === 'has_it_already' ? 2 : 1);
            expect(puts[0]?.args[0].input.Item).toEqual({
              ...expected.write,
              createdAt: expect.stringMatching(ISO_TIME),
              consentVersion: SIGNUP_NOTE_VERSION,
              status: 'pending',
              expiresAt: expect.any(Number),
              mailRequestId: expect.any(String),
              mailRequestedAt: expect.stringMatching(ISO_TIME),
              mailsRequested: 1,
              mailbox: mailboxHashOf(String(expected.write.email)),
            });
            expectAnswer(STORE_ANSWER[behaviour]);
          } else if ('honeypot' in expected) {
            seen.honeypots++;
            expect(dynamo.calls()).toHaveLength(0);
            expectAnswer('joined');
          } else {
            seen.errors.add(expected.error);
            expect(dynamo.calls()).toHaveLength(0);
            expectAnswer(expected.error);
          }
          expect(result.headers?.['cache-control']).toBe('no-store');
          expectHarmlessLog(logLines);
        },
      ),
      { numRuns: 10_000 },
    );

    // The generators reach every branch, so none of the checks above holds for want of cases. Each run
    // draws a new seed, so these counts vary: of 10,000 events about 2.3 % write (227, give or take 15),
    // 0.4 % hit the honeypot (41 ± 6) and 9 % redirect (930 ± 30). Each floor lies at least four and a
    // half of those spreads below, so it fails only when a branch is truly out of reach, not by chance
    // (the floors of 400 writes in 20,000 sat two and a half spreads below: one run in 200 failed).
    expect(seen.writes).toBeGreaterThan(150);
    expect(seen.honeypots).toBeGreaterThan(12);
    expect(seen.redirects).toBeGreaterThan(750);
    expect([...seen.errors].sort()).toEqual([
      'invalid_email',
      'invalid_request',
      'method_not_allowed',
      'payload_too_large',
      'unsupported_media_type',
    ]);
    // Ten thousand events take about three seconds of CPU; the time limit leaves room for a machine whose
    // cores are busy with other work (four times slower, measured) and for the other test files in turn.
  }, 60_000);

  it('stores any valid address under its canonical key and as entered, trimmed, whatever its script', async () => {
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
          email: check.key,
          emailAsEntered: check.email,
          language,
        });
        expect(logLines.join('\n')).not.toContain(check.email);
      }),
      { numRuns: 2_000 },
    );
  }, 60_000);
});
