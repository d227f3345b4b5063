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

const onlyLine = () => {
  expect(logLines).toHaveLength(1);
  return logLines[0] ?? '';
};
const service = '{Service=waitlist}';

const stored = () => dynamo.on(PutCommand).resolves({});
const signup = (email = 'ann@example.nl', language = 'nl', website?: string) =>
  httpApiEvent({ body: jsonBody({ email, language, ...(website ? { website } : {}) }) });

describe('the metrics in the waitlist’s log line', () => {
  it.each([
    [
      'a signup in nl, by language too',
      stored,
      signup(),
      ['Joined{Service=waitlist,Language=nl}=1', 'Joined'],
    ],
    [
      'a signup in en',
      stored,
      signup('ann@example.nl', 'en'),
      ['Joined{Service=waitlist,Language=en}=1', 'Joined'],
    ],
    // The live smoke check's signups are no people: the funnel is people's.
    ['no signup of SES’s mailbox simulator', stored, signup('success@simulator.amazonses.com', 'en'), []],
    [
      'an address already on the list',
      () =>
        dynamo
          .on(PutCommand)
          .rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
          .on(UpdateCommand)
          .resolves({}),
      signup(),
      ['AlreadyRegistered'],
    ],
    ['an invalid address as invalid', () => {}, signup('ann'), ['Invalid']],
    ['a malformed body as invalid', () => {}, httpApiEvent({ body: '{' }), ['Invalid']],
    [
      'a body of the wrong type as invalid',
      () => {},
      httpApiEvent({ contentType: 'text/plain', body: 'x' }),
      ['Invalid'],
    ],
    ['a wrong method as invalid', () => {}, httpApiEvent({ method: 'GET' }), ['Invalid']],
    ['a body over 1 KB as invalid', () => {}, signup(`${'a'.repeat(1100)}@x.nl`), ['Invalid']],
    ['a robot caught by the hidden field', () => {}, signup('ann@example.nl', 'nl', 'x'), ['Honeypot']],
    [
      'a transient fault as unavailable, and by its class',
      () => dynamo.on(PutCommand).rejects(new ThrottlingException({ message: 'slow down', $metadata: {} })),
      signup(),
      ['Faults{Service=waitlist,FaultClass=throttled}=1', 'Unavailable'],
    ],
    [
      'a permanent fault as internal, and by its class',
      () => dynamo.on(PutCommand).rejects(new TypeError('a bug')),
      signup(),
      ['Faults{Service=waitlist,FaultClass=code}=1', 'Internal'],
    ],
  ] as const)('count %s, with the request and its latency', async (_case, arrange, event, points) => {
    arrange();
    await handler(event);

    const expected = [...points, 'Latency', 'Requests'].map((point) =>
      point.includes('{') ? point : `${point}${service}=${point === 'Latency' ? '*' : 1}`,
    );
    expect(pointsOf(onlyLine())).toEqual(expected.sort());
  });

  it('write every point in the Mandje namespace, with a unit, at the time of the request', async () => {
    const before = Date.now();
    stored();
    await handler(signup());

    const points = readEmf(onlyLine());
    expect(new Set(points.map(({ namespace }) => namespace))).toEqual(new Set([METRIC_NAMESPACE]));
    for (const { name, unit, timestamp } of points) {
      expect(unit).toBe(name === 'Latency' ? 'Milliseconds' : 'Count');
      expect(timestamp).toBeGreaterThanOrEqual(before);
      expect(timestamp).toBeLessThanOrEqual(Date.now());
    }
  });

  it('carry the fields of Lambda’s JSON log format, so the line reads like the runtime’s own', async () => {
    stored();
    await handler(signup());

    expect(JSON.parse(onlyLine())).toMatchObject({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'INFO',
      message: 'waitlist request',
      requestId: 'request-1',
    });
  });
});
