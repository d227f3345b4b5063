/**
 * The waitlist handler keeps where a signup came from on its new record, logs it as one coarse label,
 * and changes nothing of a record that is already there.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent, jsonBody } from './http-api-event';

const ADDRESS = 'ann@example.nl';

afterEach(() => {
  expect(logLines.join('\n')).not.toContain(ADDRESS);
});

const join = (body: Record<string, unknown>) =>
  handler(httpApiEvent({ body: jsonBody({ email: ADDRESS, language: 'nl', ...body }) }));

/** The one request line the handler logged. */
const loggedLine = () => {
  const lines = logLines.filter((line) => line.includes('"waitlist request"'));
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
};

const storedItem = () => dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item;

describe('where a signup came from, in the waitlist handler', () => {
  it('stores the kept values as the new record’s source, and logs its label', async () => {
    dynamo.on(PutCommand).resolves({});
    const result = await join({
      utmSource: 'Newsletter',
      utmMedium: 'email',
      utmCampaign: 'december',
      referrer: 'instagram.com',
    });

    expect(result.statusCode).toBe(201);
    expect(storedItem()?.source).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'december',
      referrer: 'instagram.com',
    });
    expect(loggedLine()).toMatchObject({ outcome: 'joined', source: 'newsletter' });
  });

  it('logs the referring host as the label when there is no utm_source, never more than the host', async () => {
    dynamo.on(PutCommand).resolves({});
    await join({ referrer: 'instagram.com' });

    expect(loggedLine()).toMatchObject({ outcome: 'joined', source: 'instagram.com' });
  });

  it('stores no source on a signup that came with none, and logs it as direct', async () => {
    dynamo.on(PutCommand).resolves({});
    await join({});

    expect(storedItem()).not.toHaveProperty('source');
    expect(loggedLine()).toMatchObject({ outcome: 'joined', source: 'direct' });
  });

  it('stores and logs nothing of hostile values, and still takes the signup', async () => {
    dynamo.on(PutCommand).resolves({});
    const hostile = {
      utmSource: '<script>alert(1)</script>',
      utmMedium: 'e\r\nmail',
      utmCampaign: 'x'.repeat(500),
      referrer: 'https://ann:secret@instagram.com/p/private',
    };
    const result = await join(hostile);

    expect(result.statusCode).toBe(201);
    expect(storedItem()).not.toHaveProperty('source');
    const logged = logLines.join('\n');
    for (const value of ['<script>', 'secret', '/p/private', 'xxxxxxxxxx'])
      expect(logged).not.toContain(value);
    expect(loggedLine()).toMatchObject({ source: 'direct' });
  });

  it('answers a field of the wrong type with 400, as any malformed request, and stores nothing', async () => {
    const result = await join({ utmSource: 7 });

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: 'invalid_request' });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('stores the UTM values of a form post’s own page, read from its Referer', async () => {
    dynamo.on(PutCommand).resolves({});
    const event = httpApiEvent({
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ email: ADDRESS, language: 'en' }).toString(),
    });
    event.headers = {
      ...event.headers,
      host: 'mandje.nl',
      referer: 'https://mandje.nl/en/?utm_source=flyer&utm_medium=qr',
    };
    const result = await handler(event);

    expect(result.statusCode).toBe(303);
    expect(storedItem()?.source).toEqual({ utmSource: 'flyer', utmMedium: 'qr' });
    expect(loggedLine()).toMatchObject({ form: 'form', source: 'flyer' });
  });

  it('changes nothing of an address already on the list: the new source is neither put nor updated', async () => {
    dynamo
      .on(PutCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
      .on(UpdateCommand)
      .resolves({});
    const result = await join({ utmSource: 'second-visit' });

    expect(result.statusCode).toBe(409);
    // The put that would have stored it is conditional on there being no record; it failed.
    expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input.ConditionExpression).toMatch(
      /^attribute_not_exists\(email\)/,
    );
    for (const { args } of dynamo.commandCalls(UpdateCommand)) {
      expect(JSON.stringify(args[0].input)).not.toMatch(/source|second-visit/);
    }
  });
});
