/**
 * The waitlist form without a script: a plain HTML form post, answered with 303 See Other to a result page
 * in the visitor's language. And what bytes the API reads in either form: UTF-8 and nothing else.
 */
import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

const FORM = 'application/x-www-form-urlencoded';
const ADDRESS = 'Ann.de.Vries@Example.nl';

/** The body a browser posts for the waitlist form. */
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postForm = (fields: Record<string, string>, contentType = FORM) =>
  handler(httpApiEvent({ contentType, body: formBody(fields) }));

afterEach(() => {
  expect(logLines.join('\n').toLowerCase()).not.toContain('ann.de.vries');
});

describe('a form post', () => {
  it.each([
    ['nl', '/waitlist/joined'],
    ['en', '/en/waitlist/joined'],
  ])('in %s stores the address and sends the visitor on to %s', async (language, location) => {
    dynamo.on(PutCommand).resolves({});
    const result = await postForm({ email: ` ${ADDRESS} `, language, website: '' });

    expect(result.statusCode).toBe(303);
    expect(result.headers).toMatchObject({ location, 'cache-control': 'no-store' });
    expect(result.body).toBe('');
    const puts = dynamo.commandCalls(PutCommand);
    expect(puts).toHaveLength(1);
    expect(puts[0]?.args[0].input.Item).toMatchObject({
      email: 'ann.de.vries@example.nl',
      emailAsEntered: ADDRESS,
      language,
    });
  });

  it('sends an address already on the list to the already-registered page', async () => {
    dynamo.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    const result = await postForm({ email: ADDRESS, language: 'en' });

    expect(result.statusCode).toBe(303);
    expect(result.headers?.location).toBe('/en/waitlist/already-registered');
  });

  it.each([
    ['an invalid address', { email: 'ann@example', language: 'nl' }, '/waitlist/invalid-email'],
    ['an empty address', { email: '', language: 'en' }, '/en/waitlist/invalid-email'],
    ['an invisible character', { email: 'zw@x.nl\u200b', language: 'en' }, '/en/waitlist/invalid-email'],
    ['no address field', { language: 'en' }, '/en/waitlist/invalid-email'],
    ['no language: Dutch, the default', { email: ADDRESS }, '/waitlist/invalid-email'],
    ['an unknown language', { email: ADDRESS, language: 'de' }, '/waitlist/invalid-email'],
  ])(
    'sends %s to the invalid-address page in its language, storing nothing',
    async (_case, fields, location) => {
      const result = await postForm(fields);

      expect(result.statusCode).toBe(303);
      expect(result.headers?.location).toBe(location);
      expect(dynamo.calls()).toHaveLength(0);
    },
  );

  it('sends a store that fails to the try-again page: the visitor can try again', async () => {
    dynamo
      .on(PutCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'busy', $metadata: {} }));
    const result = await postForm({ email: ADDRESS, language: 'nl' });

    expect(result.statusCode).toBe(303);
    expect(result.headers?.location).toBe('/waitlist/try-again');
  });

  it('sends a robot that filled the honeypot to the joined page and stores nothing', async () => {
    const result = await postForm({ email: ADDRESS, language: 'nl', website: 'https://spam.example' });

    expect(result.headers?.location).toBe('/waitlist/joined');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('takes a form body of exactly MAX_REQUEST_BYTES, and one byte more is sent to the invalid page unread', async () => {
    dynamo.on(PutCommand).resolves({});
    const base = formBody({ email: ADDRESS, language: 'nl', website: '' });
    const atLimit = `${base}&padding=${'x'.repeat(MAX_REQUEST_BYTES - base.length - '&padding='.length)}`;
    expect(Buffer.byteLength(atLimit)).toBe(MAX_REQUEST_BYTES);

    expect((await handler(httpApiEvent({ contentType: FORM, body: atLimit }))).headers?.location).toBe(
      '/waitlist/joined',
    );
    const over = await handler(httpApiEvent({ contentType: FORM, body: `${atLimit}x` }));
    expect(over.headers?.location).toBe('/waitlist/invalid-email');
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(1);
  });

  it('never puts the address in the redirect or the log', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await postForm({ email: ADDRESS, language: 'nl' });

    expect(JSON.stringify(result)).not.toMatch(/vries/i);
    expect(JSON.parse(logLines[0] ?? '')).toMatchObject({ outcome: 'joined', form: 'form', status: 303 });
  });
});

describe('the bytes of a request', () => {
  const latin1Body = Buffer.concat([
    Buffer.from('{"email":"jos'),
    Buffer.from([0xe9]),
    Buffer.from('@x.nl","language":"nl"}'),
  ]);

  it('refuses a JSON body that is not valid UTF-8 with 400 invalid_request, decoding nothing', async () => {
    const result = await handler(
      httpApiEvent({ body: latin1Body.toString('base64'), isBase64Encoded: true }),
    );

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'invalid_request' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('refuses a form body with bytes that are not UTF-8, as an invalid request, storing nothing', async () => {
    const raw = await handler(
      httpApiEvent({ contentType: FORM, body: latin1Body.toString('base64'), isBase64Encoded: true }),
    );
    const escaped = await handler(
      httpApiEvent({ contentType: FORM, body: 'email=jos%E9%40x.nl&language=en' }),
    );

    expect(raw.headers?.location).toBe('/waitlist/invalid-email');
    expect(escaped.headers?.location).toBe('/waitlist/invalid-email');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each([
    'application/json; charset=iso-8859-1',
    'application/json; charset=windows-1252',
    `${FORM}; charset=iso-8859-1`,
    `${FORM}; charset="Shift_JIS"`,
  ])('refuses a declared charset other than UTF-8 (%s) with 415', async (contentType) => {
    const result = await handler(
      httpApiEvent({ contentType, body: JSON.stringify({ email: 'ann@x.nl', language: 'nl' }) }),
    );

    expect(result.statusCode).toBe(415);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'unsupported_media_type' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each([
    'application/json; charset=utf-8; charset=latin1',
    'application/json; charset=latin1; charset=utf-8',
  ])('refuses a charset given twice (%s) with 415: which one was meant is a guess', async (contentType) => {
    const result = await handler(
      httpApiEvent({ contentType, body: JSON.stringify({ email: 'ann@x.nl', language: 'nl' }) }),
    );
    expect(result.statusCode).toBe(415);
  });

  it('reads a parameter without a value as no charset at all', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await handler(
      httpApiEvent({
        contentType: 'application/json; charsetx',
        body: JSON.stringify({ email: 'ann@x.nl', language: 'nl' }),
      }),
    );
    expect(result.statusCode).toBe(201);
  });

  it('keeps a byte order mark as a character, so a field named with one is not the email field', async () => {
    const result = await handler(
      httpApiEvent({ contentType: FORM, body: '%EF%BB%BFemail=ann%40x.nl&language=nl' }),
    );
    expect(result.headers?.location).toBe('/waitlist/invalid-email');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each(['gzip', 'br', 'deflate', 'GZIP', 'identity, gzip', 'x-custom'])(
    'refuses a body sent with Content-Encoding %j with 415, in either form',
    async (contentEncoding) => {
      for (const [contentType, body] of [
        ['application/json', JSON.stringify({ email: 'ann@x.nl', language: 'nl' })],
        [FORM, 'email=ann%40x.nl&language=nl'],
      ] as const) {
        const event = httpApiEvent({ contentType, body });
        event.headers['content-encoding'] = contentEncoding;
        const result = await handler(event);

        expect(result.statusCode).toBe(415);
      }
      expect(dynamo.calls()).toHaveLength(0);
    },
  );

  it('takes Content-Encoding: identity, which is no coding at all', async () => {
    dynamo.on(PutCommand).resolves({});
    const event = httpApiEvent({ body: JSON.stringify({ email: 'ann@x.nl', language: 'nl' }) });
    event.headers['content-encoding'] = 'identity';

    expect((await handler(event)).statusCode).toBe(201);
  });
});
