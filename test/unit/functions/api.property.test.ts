/**
 * Hostile input, generated: whatever an event holds, the signup route answers from the contract, writes only
 * a valid request, at most once, under its address's key, and logs nothing of what was sent.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkEmail } from '#contract/email-address';
import { METRIC } from '#contract/metrics';
import { MAX_REQUEST_BYTES, WAITLIST_HTTP_STATUS, WAITLIST_RESULT_PATH } from '#contract/waitlist-api';
import { clearLogLines, dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

type StoreBehaviour = 'stores' | 'has_it_already' | 'fails';
let storeBehaviour: StoreBehaviour = 'stores';
beforeEach(() => {
  dynamo.on(PutCommand).callsFake(async () => {
    if (storeBehaviour === 'has_it_already')
      throw new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
    if (storeBehaviour === 'fails') throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
    return {};
  });
});

/** Characters one at a time, then pieces: invisible, look-alike, other scripts, decomposed, broken. */
const tricky = [...'üßİＡ😀\u200b\u202e\u0000\ufeff .@"\\%+', 'مثال', 'a\u0301', '\ud800'];
const piece = fc.string({
  unit: fc.oneof(fc.constantFrom(...'abcXYZ019_-'.split('')), fc.constantFrom(...tricky)),
  maxLength: 12,
});
/** Addresses people type, robots send and attackers try: valid, unicode, mangled, too long. */
const address = fc.oneof(
  { weight: 4, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.emailAddress().map((email) => ` ${email.toUpperCase()}\t`) },
  { weight: 1, arbitrary: fc.emailAddress().map((email) => `${'a'.repeat(250)}${email}`) },
  {
    weight: 3,
    arbitrary: fc.tuple(piece, piece, piece).map(([local, domain, top]) => `${local}@${domain}.${top}`),
  },
);
const fields = fc.record(
  {
    email: fc.oneof({ weight: 9, arbitrary: address }, { weight: 1, arbitrary: fc.jsonValue() }),
    language: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('nl', 'en') },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    website: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(undefined, '') },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    filler: fc.option(fc.integer({ min: 1, max: 2 * MAX_REQUEST_BYTES }).map((size) => 'x'.repeat(size))),
  },
  { requiredKeys: [] },
);
/** Every UTF-8 byte escaped, as a form may send it (a lone surrogate becomes U+FFFD's bytes). */
const percentEncoded = (text: string) => Buffer.from(text).toString('hex').replace(/../g, '%$&');
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fields.map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
  },
  {
    weight: 3,
    arbitrary: fields.map((value) => ({
      type: 'application/x-www-form-urlencoded',
      text: Object.entries(value)
        .map(
          ([name, field]) =>
            `${name}=${percentEncoded(typeof field === 'string' ? field : (JSON.stringify(field) ?? ''))}`,
        )
        .join('&'),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1'),
      text: fc.string({ unit: 'binary' }),
    }),
  },
);
const hostileEvent = fc
  .record({
    body,
    base64: fc.boolean(),
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'post'),
  })
  .map(({ body, base64, method }) =>
    httpApiEvent({
      method,
      contentType: body.type,
      body: base64 ? Buffer.from(body.text).toString('base64') : body.text,
      isBase64Encoded: base64,
    }),
  );

const STATUSES = new Set<number>([...Object.values(WAITLIST_HTTP_STATUS), 303]);
const LOCATIONS = new Set(Object.values(WAITLIST_RESULT_PATH).flatMap((paths) => Object.values(paths)));
const LOG_FIELDS = [
  'timestamp',
  'level',
  'message',
  'requestId',
  'outcome',
  'form',
  'status',
  'errorName',
  'source',
  'Service',
  'Language',
  'FaultClass',
  '_aws',
];

describe('the signup route under generated hostile events', () => {
  it('answers from the contract, stores only a valid address under its key, once, and logs nothing sent', async () => {
    const seen = { writes: 0, statuses: new Set<number>() };
    await fc.assert(
      fc.asyncProperty(
        hostileEvent,
        fc.constantFrom<StoreBehaviour>('stores', 'has_it_already', 'fails'),
        async (event, behaviour) => {
          dynamo.resetHistory();
          clearLogLines();
          storeBehaviour = behaviour;

          const result = await handler(event);

          seen.statuses.add(Number(result.statusCode));
          expect(STATUSES.has(Number(result.statusCode))).toBe(true);
          expect(result.headers?.['cache-control']).toBe('no-store');
          if (result.statusCode === 303) expect(LOCATIONS.has(String(result.headers?.location))).toBe(true);
          const puts = dynamo.commandCalls(PutCommand);
          expect(puts.length).toBeLessThanOrEqual(1);
          const item = puts[0]?.args[0].input.Item;
          if (item) {
            seen.writes++;
            const check = checkEmail(String(item.emailAsEntered));
            expect(check.ok && check.key).toBe(item.email);
            expect(['nl', 'en']).toContain(item.language);
            expect(event.requestContext.http.method).toBe('POST');
          }
          expect(logLines).toHaveLength(1);
          const line = JSON.parse(logLines[0] ?? '') as Record<string, unknown>;
          for (const [name, value] of Object.entries(line))
            if (!LOG_FIELDS.includes(name)) {
              expect(Object.values(METRIC)).toContain(name);
              expect(typeof value).toBe('number');
            }
          if (item) expect(logLines[0]).not.toContain(String(item.emailAsEntered));
        },
      ),
      { numRuns: 3_000 },
    );
    // The generators reach every branch, so none of the checks above holds for want of cases.
    expect(seen.writes).toBeGreaterThan(100);
    expect([...seen.statuses].sort()).toEqual([201, 303, 400, 405, 409, 413, 415, 503]);
  }, 60_000);
});
