/**
 * Abuse at the handler: robots in the honeypot, bodies at and past the limit in any encoding, content
 * types that are nearly JSON, and answers that say no more than their error code.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent, jsonBody } from './http-api-event';

const ADDRESS = 'sanne@example.nl';

/** A valid join request padded, in an ignored field, to exactly `bytes` bytes of UTF-8 with `filler`. */
function requestOfBytes(bytes: number, filler: string): string {
  const bare = jsonBody({ email: ADDRESS, language: 'nl', padding: '' });
  const room = bytes - Buffer.byteLength(bare);
  const fillerBytes = Buffer.byteLength(filler);
  const padding = filler.repeat(Math.floor(room / fillerBytes)) + 'x'.repeat(room % fillerBytes);
  const body = jsonBody({ email: ADDRESS, language: 'nl', padding });
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('the honeypot', () => {
  it('answers a robot exactly as it answers a person, headers and body alike, and stores nothing', async () => {
    dynamo.on(PutCommand).resolves({});
    const person = await handler(httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl' }) }));
    dynamo.resetHistory();

    const robot = await handler(
      httpApiEvent({
        body: jsonBody({ email: 'bot@example.nl', language: 'nl', website: 'https://x.example' }),
      }),
    );

    expect(robot).toEqual(person);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('never says "already registered" to a robot, so it cannot learn who is on the list', async () => {
    dynamo.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));

    const robot = await handler(
      httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', website: 'x' }) }),
    );

    expect(robot.statusCode).toBe(201);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each([' ', '\t', '\n', '\u00a0'])(
    'counts a honeypot of only whitespace (%j) as filled in, in JSON and in a form post: people never reach the field',
    async (whitespace) => {
      const json = await handler(
        httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', website: whitespace }) }),
      );
      const form = await handler(
        httpApiEvent({
          contentType: 'application/x-www-form-urlencoded',
          body: new URLSearchParams({ email: ADDRESS, language: 'nl', website: whitespace }).toString(),
        }),
      );

      expect(json.statusCode).toBe(201);
      expect(form.headers?.location).toBe('/waitlist/joined');
      expect(dynamo.calls()).toHaveLength(0);
      expect(logLines.map((line) => JSON.parse(line).outcome)).toEqual([
        'ignored_honeypot',
        'ignored_honeypot',
      ]);
    },
  );

  it('treats an empty honeypot as a person, as the form sends it', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await handler(
      httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', website: '' }) }),
    );

    expect(result.statusCode).toBe(201);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(1);
  });

  it('tells the operator in the log that a robot was turned away, without its address', async () => {
    await handler(httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', website: 'x' }) }));

    expect(JSON.parse(logLines[0] ?? '')).toMatchObject({ outcome: 'ignored_honeypot', status: 201 });
    expect(logLines.join('\n')).not.toContain('sanne');
  });
});

describe('the body limit, in bytes after decoding', () => {
  it.each([
    ['ASCII', 'x'],
    ['two-byte text', 'é'],
    ['three-byte text', '€'],
    ['four-byte text', '😀'],
  ])(
    'takes a body of exactly MAX_REQUEST_BYTES bytes of %s, and refuses one byte more with 413',
    async (_case, filler) => {
      dynamo.on(PutCommand).resolves({});

      const atLimit = await handler(httpApiEvent({ body: requestOfBytes(MAX_REQUEST_BYTES, filler) }));
      const overLimit = await handler(httpApiEvent({ body: requestOfBytes(MAX_REQUEST_BYTES + 1, filler) }));

      expect(atLimit.statusCode).toBe(201);
      expect(overLimit.statusCode).toBe(413);
      expect(JSON.parse(overLimit.body ?? '')).toEqual({ error: 'payload_too_large' });
      expect(dynamo.calls()).toHaveLength(1);
    },
  );

  it('measures a base64 body after decoding: 1,368 characters of base64 that decode to the limit pass', async () => {
    dynamo.on(PutCommand).resolves({});
    const atLimit = base64(requestOfBytes(MAX_REQUEST_BYTES, '€'));
    const overLimit = base64(requestOfBytes(MAX_REQUEST_BYTES + 1, '€'));
    expect(atLimit.length).toBeGreaterThan(MAX_REQUEST_BYTES);

    expect((await handler(httpApiEvent({ body: atLimit, isBase64Encoded: true }))).statusCode).toBe(201);
    expect((await handler(httpApiEvent({ body: overLimit, isBase64Encoded: true }))).statusCode).toBe(413);
  });

  it('counts bytes, not characters: 400 euro signs are 1,200 bytes and too large', async () => {
    const body = jsonBody({ email: ADDRESS, language: 'nl', padding: '€'.repeat(400) });
    expect(body.length).toBeLessThan(MAX_REQUEST_BYTES);

    expect((await handler(httpApiEvent({ body }))).statusCode).toBe(413);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('refuses a megabyte with 413 before reading it as JSON', async () => {
    const result = await handler(httpApiEvent({ body: `{"email":"${'a'.repeat(1024 * 1024)}` }));

    expect(result.statusCode).toBe(413);
    expect(dynamo.calls()).toHaveLength(0);
  });
});

describe('the content type', () => {
  it.each([
    'APPLICATION/JSON',
    ' application/json ',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
  ])('takes %j as JSON', async (contentType) => {
    dynamo.on(PutCommand).resolves({});
    const result = await handler(
      httpApiEvent({ contentType, body: jsonBody({ email: ADDRESS, language: 'nl' }) }),
    );

    expect(result.statusCode).toBe(201);
  });

  it.each([
    'application/json-patch+json',
    'application/jsonp',
    'text/json',
    'multipart/form-data; boundary=x',
    'application/xml',
    'json',
    'application/json\u0000',
    'application/ json',
    '',
    'application/json; charset=latin1',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
  ])('refuses %j with 415, even with a valid JSON body, and stores nothing', async (contentType) => {
    const result = await handler(
      httpApiEvent({ contentType, body: jsonBody({ email: ADDRESS, language: 'nl' }) }),
    );

    expect(result.statusCode).toBe(415);
    expect(dynamo.calls()).toHaveLength(0);
  });
});

describe('error answers', () => {
  const probe = '<script>alert(1)</script>{{7*7}}';
  it.each([
    ['invalid_email', 400, httpApiEvent({ body: jsonBody({ email: `${probe}@x`, language: 'nl' }) })],
    ['invalid_request', 400, httpApiEvent({ body: `{"email":"${probe}"` })],
    ['invalid_request', 400, httpApiEvent({ body: jsonBody({ email: ADDRESS, language: probe }) })],
    ['payload_too_large', 413, httpApiEvent({ body: probe.repeat(100) })],
    ['unsupported_media_type', 415, httpApiEvent({ contentType: probe, body: '{}' })],
    ['method_not_allowed', 405, httpApiEvent({ method: probe, body: '{}' })],
  ])('say %s (%i) and nothing else: no echo of the request, no detail', async (code, status, event) => {
    const result = await handler(event);

    expect(result.statusCode).toBe(status);
    expect(result.body).toBe(`{"error":"${code}"}`);
    expect(Object.keys(result.headers ?? {}).sort()).toEqual(
      ['cache-control', 'content-type', ...(code === 'method_not_allowed' ? ['allow'] : [])].sort(),
    );
    expect(logLines.join('\n')).not.toContain('script');
  });
});
