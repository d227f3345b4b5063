/**
 * The metrics each waitlist request leaves in its one log line, read as CloudWatch reads Embedded Metric
 * Format: the alarms and the dashboard count on exactly these names and dimensions.
 */
import { ConditionalCheckFailedException, ThrottlingException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMESPACE } from '#contract/metrics';
import { pointsOf, readEmf } from './cloudwatch-emf';
import { dynamo, handler, logLines } from './handler-under-test';
import { httpApiEvent, jsonBody } from './http-api-event';

const join = (body: unknown) => handler(httpApiEvent({ body: jsonBody(body) }));
const onlyLine = () => {
  expect(logLines).toHaveLength(1);
  return logLines[0] ?? '';
};
const service = '{Service=waitlist}';

describe('the metrics in the waitlist’s log line', () => {
  it.each(['nl', 'en'] as const)(
    'count a signup in %s, by language too, with its latency',
    async (language) => {
      dynamo.on(PutCommand).resolves({});
      await join({ email: 'ann@example.nl', language });

      expect(pointsOf(onlyLine())).toEqual([
        `Joined{Service=waitlist,Language=${language}}=1`,
        `Joined${service}=1`,
        `Latency${service}=*`,
        `Requests${service}=1`,
      ]);
    },
  );

  it('count no signup of SES’s mailbox simulator (the live smoke check): the funnel is people’s', async () => {
    dynamo.on(PutCommand).resolves({});
    await join({ email: 'success@simulator.amazonses.com', language: 'en' });

    expect(pointsOf(onlyLine())).toEqual([`Latency${service}=*`, `Requests${service}=1`]);
  });

  it('count an address already on the list', async () => {
    dynamo
      .on(PutCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
      .on(UpdateCommand)
      .resolves({});
    await join({ email: 'ann@example.nl', language: 'nl' });

    expect(pointsOf(onlyLine())).toEqual([
      `AlreadyRegistered${service}=1`,
      `Latency${service}=*`,
      `Requests${service}=1`,
    ]);
  });

  it.each([
    ['an invalid address', httpApiEvent({ body: jsonBody({ email: 'ann', language: 'nl' }) })],
    ['a malformed body', httpApiEvent({ body: '{' })],
    ['a body of the wrong type', httpApiEvent({ contentType: 'text/plain', body: 'x' })],
    ['a wrong method', httpApiEvent({ method: 'GET' })],
    [
      'a body over 1 KB',
      httpApiEvent({ body: jsonBody({ email: `${'a'.repeat(1100)}@x.nl`, language: 'nl' }) }),
    ],
  ])('count %s as invalid', async (_case, event) => {
    await handler(event);

    expect(pointsOf(onlyLine())).toEqual([
      `Invalid${service}=1`,
      `Latency${service}=*`,
      `Requests${service}=1`,
    ]);
  });

  it('count a robot caught by the hidden field', async () => {
    await join({ email: 'ann@example.nl', language: 'nl', website: 'x' });

    expect(pointsOf(onlyLine())).toEqual([
      `Honeypot${service}=1`,
      `Latency${service}=*`,
      `Requests${service}=1`,
    ]);
  });

  it('count a transient fault as unavailable, and by its class', async () => {
    dynamo.on(PutCommand).rejects(new ThrottlingException({ message: 'slow down', $metadata: {} }));
    await join({ email: 'ann@example.nl', language: 'nl' });

    expect(pointsOf(onlyLine())).toEqual([
      'Faults{Service=waitlist,FaultClass=throttled}=1',
      `Latency${service}=*`,
      `Requests${service}=1`,
      `Unavailable${service}=1`,
    ]);
  });

  it('count a permanent fault as internal, and by its class', async () => {
    dynamo.on(PutCommand).rejects(new TypeError('a bug'));
    await join({ email: 'ann@example.nl', language: 'nl' });

    expect(pointsOf(onlyLine())).toEqual([
      'Faults{Service=waitlist,FaultClass=code}=1',
      `Internal${service}=1`,
      `Latency${service}=*`,
      `Requests${service}=1`,
    ]);
  });

  it('write every point in the Mandje namespace, with a unit, at the time of the request', async () => {
    const before = Date.now();
    dynamo.on(PutCommand).resolves({});
    await join({ email: 'ann@example.nl', language: 'nl' });

    const points = readEmf(onlyLine());
    expect(new Set(points.map(({ namespace }) => namespace))).toEqual(new Set([METRIC_NAMESPACE]));
    for (const { name, unit, timestamp } of points) {
      expect(unit).toBe(name === 'Latency' ? 'Milliseconds' : 'Count');
      expect(timestamp).toBeGreaterThanOrEqual(before);
      expect(timestamp).toBeLessThanOrEqual(Date.now());
    }
  });

  it('carry the fields of Lambda’s JSON log format, so the line reads like the runtime’s own', async () => {
    dynamo.on(PutCommand).resolves({});
    await join({ email: 'ann@example.nl', language: 'nl' });

    expect(JSON.parse(onlyLine())).toMatchObject({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'INFO',
      message: 'waitlist request',
      requestId: 'request-1',
    });
  });
});
