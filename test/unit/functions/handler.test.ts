import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../../functions/store/mailbox';
import { dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent, jsonBody } from './http-api-event';

const ADDRESS = 'Ann.de.Vries@Example.nl';

afterEach(() => {
  // Whatever happened, the address never reaches the logs.
  expect(logLines.join('\n').toLowerCase()).not.toContain('ann.de.vries');
  expect(logLines.join('\n')).not.toMatch(/@example\.nl/i);
});

const join = (body: unknown) => handler(httpApiEvent({ body: jsonBody(body) }));
const parse = (result: { body?: string }) => JSON.parse(result.body ?? '');

describe('waitlist handler', () => {
  it('stores a new address pending, with one conditional put keyed on its canonical identity that asks for a mail', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await join({ email: `  ${ADDRESS} `, language: 'en' });

    expect(result.statusCode).toBe(201);
    expect(parse(result)).toEqual({ status: 'joined' });
    const puts = dynamo.commandCalls(PutCommand);
    expect(puts).toHaveLength(1);
    expect(dynamo.calls()).toHaveLength(1);
    const input = puts[0]?.args[0].input;
    // What the condition lets through (a new key, or a lapsed pending one never bounced) is held on dynalite
    // by test/integration/join-core.test.ts.
    expect(input?.ConditionExpression).toBeDefined();
    expect(input).toMatchObject({
      TableName: 'waitlist-test',
      Item: {
        email: 'ann.de.vries@example.nl',
        mailbox: mailboxHashOf('ann.de.vries@example.nl'),
        emailAsEntered: ADDRESS,
        language: 'en',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        consentVersion: SIGNUP_NOTE_VERSION,
        status: 'pending',
        expiresAt: expect.any(Number),
        mailRequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        mailRequestedAt: input?.Item?.createdAt,
        mailsRequested: 1,
      },
    });
  });

  it('stores when a pending record expires: PENDING_DAYS after joining, in Unix seconds for DynamoDB TTL', async () => {
    await join({ email: ADDRESS, language: 'nl' });

    const item = dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item;
    const joinedSeconds = Math.floor(Date.parse(item?.createdAt) / 1000);
    expect(item?.expiresAt).toBe(joinedSeconds + PENDING_DAYS * 24 * 60 * 60);
  });

  it('answers 409 already_registered when the address is on the list', async () => {
    dynamo
      .on(PutCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    const result = await join({ email: ADDRESS, language: 'nl' });

    expect(result.statusCode).toBe(409);
    expect(parse(result)).toEqual({ error: 'already_registered' });
  });

  it('reads a base64-encoded body, as API Gateway sends some', async () => {
    dynamo.on(PutCommand).resolves({});
    const body = Buffer.from(jsonBody({ email: ADDRESS, language: 'nl' })).toString('base64');
    const result = await handler(httpApiEvent({ body, isBase64Encoded: true }));

    expect(result.statusCode).toBe(201);
  });

  it.each([
    ['an empty address', 400, 'invalid_email', jsonBody({ email: '', language: 'nl' })],
    ['an address of spaces', 400, 'invalid_email', jsonBody({ email: '   ', language: 'nl' })],
    [
      'an address without a dot after the at sign',
      400,
      'invalid_email',
      jsonBody({ email: 'ann@example', language: 'nl' }),
    ],
    ['an address with a space', 400, 'invalid_email', jsonBody({ email: 'ann @example.nl', language: 'nl' })],
    [
      'an address over 254 characters',
      400,
      'invalid_email',
      jsonBody({ email: `${'a'.repeat(250)}@x.nl`, language: 'nl' }),
    ],
    ['a body that is not JSON', 400, 'invalid_request', '{"email":'],
    ['a JSON array', 400, 'invalid_request', '[]'],
    ['an address that is not a string', 400, 'invalid_request', jsonBody({ email: 42, language: 'nl' })],
    ['a missing address', 400, 'invalid_request', jsonBody({ language: 'nl' })],
    ['a missing language', 400, 'invalid_request', jsonBody({ email: ADDRESS })],
    ['an unknown language', 400, 'invalid_request', jsonBody({ email: ADDRESS, language: 'de' })],
    [
      'a honeypot that is not a string',
      400,
      'invalid_request',
      jsonBody({ email: ADDRESS, language: 'nl', website: 1 }),
    ],
    [
      'a body over 1 KB',
      413,
      'payload_too_large',
      jsonBody({ email: ADDRESS, language: 'nl', website: 'x'.repeat(1024) }),
    ],
    ['no body', 400, 'invalid_request', undefined],
  ])('refuses %s with %i %s and stores nothing', async (_case, status, error, body) => {
    const result = await handler(httpApiEvent({ body }));

    expect(result.statusCode).toBe(status);
    expect(parse(result)).toEqual({ error });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['no content type', null],
  ])('refuses %s with 415 and stores nothing', async (_case, contentType) => {
    const result = await handler(
      httpApiEvent({ contentType, body: jsonBody({ email: ADDRESS, language: 'nl' }) }),
    );

    expect(result.statusCode).toBe(415);
    expect(parse(result)).toEqual({ error: 'unsupported_media_type' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('accepts JSON with a charset', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await handler(
      httpApiEvent({
        contentType: 'application/json; charset=utf-8',
        body: jsonBody({ email: ADDRESS, language: 'nl' }),
      }),
    );

    expect(result.statusCode).toBe(201);
  });

  it.each(['GET', 'PUT', 'DELETE'])('refuses %s with 405 and says POST is allowed', async (method) => {
    const result = await handler(
      httpApiEvent({ method, body: jsonBody({ email: ADDRESS, language: 'nl' }) }),
    );

    expect(result.statusCode).toBe(405);
    expect(result.headers).toMatchObject({ allow: 'POST' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('answers a filled honeypot with 201 and stores nothing', async () => {
    const result = await join({ email: ADDRESS, language: 'nl', website: 'https://spam.example' });

    expect(result.statusCode).toBe(201);
    expect(parse(result)).toEqual({ status: 'joined' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it.each([
    [
      'throttling',
      new ProvisionedThroughputExceededException({ message: `Rate exceeded for ${ADDRESS}`, $metadata: {} }),
    ],
    ['a timeout', Object.assign(new Error(`Request to ${ADDRESS} timed out`), { name: 'TimeoutError' })],
    ['a cut connection', Object.assign(new Error(`socket hang up for ${ADDRESS}`), { code: 'ECONNRESET' })],
  ])('answers %s with 503 unavailable (safe to retry), leaking nothing', async (_case, failure) => {
    dynamo.on(PutCommand).rejects(failure as Error);
    const result = await join({ email: ADDRESS, language: 'nl' });

    expect(result.statusCode).toBe(503);
    expect(result.body).toBe(jsonBody({ error: 'unavailable' }));
  });

  it.each([
    [
      'access denied',
      new DynamoDBServiceException({ name: 'AccessDeniedException', $fault: 'client', $metadata: {} }),
    ],
    ['a missing table', new ResourceNotFoundException({ message: `Table not found`, $metadata: {} })],
    [
      'a request the store refuses',
      new DynamoDBServiceException({
        name: 'ValidationException',
        $fault: 'client',
        message: `One or more parameter values were invalid: ${ADDRESS}`,
        $metadata: {},
      }),
    ],
    ['a bug', new TypeError(`Cannot read properties of undefined (reading '${ADDRESS}')`)],
    ['something thrown that is not an Error', `failed for ${ADDRESS}`],
  ])('answers %s with 500 internal, which no retry fixes, leaking nothing', async (_case, failure) => {
    dynamo.on(PutCommand).rejects(failure as Error);
    const result = await join({ email: ADDRESS, language: 'nl' });

    expect(result.statusCode).toBe(500);
    expect(result.body).toBe(jsonBody({ error: 'internal' }));
  });

  it('sends every answer as uncached JSON', async () => {
    dynamo.on(PutCommand).resolves({});
    for (const result of [
      await join({ email: ADDRESS, language: 'nl' }),
      await handler(httpApiEvent({ body: '{' })),
    ]) {
      expect(result.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
    }
  });

  it('logs one line per request with outcome, status, latency, and the fault’s class and error name', async () => {
    dynamo
      .on(PutCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));
    await join({ email: ADDRESS, language: 'nl' });

    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0] ?? '')).toMatchObject({
      level: 'WARN',
      message: 'waitlist request',
      outcome: 'unavailable',
      form: 'json',
      status: 503,
      Latency: expect.any(Number),
      FaultClass: 'throttled',
      errorName: 'ProvisionedThroughputExceededException',
    });
  });

  it('logs a permanent fault as an error', async () => {
    dynamo.on(PutCommand).rejects(new ResourceNotFoundException({ message: 'no table', $metadata: {} }));
    await join({ email: ADDRESS, language: 'nl' });

    expect(JSON.parse(logLines[0] ?? '')).toMatchObject({
      level: 'ERROR',
      outcome: 'internal',
      status: 500,
      FaultClass: 'missing_resource',
      errorName: 'ResourceNotFoundException',
    });
  });
});
