import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { LATE_MAIL_MINUTES, MAIL_QUEUE_RETENTION_DAYS } from '#contract/mail-pace';
import { METRIC, METRIC_NAMESPACE } from '#contract/metrics';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, type Resource, resourceOf } from './template-queries';

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  stack = synthStack({ operations: { alarmEmail: 'ops@mandje.nl', signupSilenceHours: 6 } });
  template = Template.fromStack(stack);
});

const alarm = (name: string) => {
  const construct = stack.operations.alarmsByName[name];
  if (!construct) throw new Error(`no alarm ${name}`);
  return resourceOf(template, logicalIdOf(construct)).Properties;
};
type MetricQuery = { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string } } };
const queriesOf = (name: string) => alarm(name).Metrics as MetricQuery[];
const DAY_SECONDS = 24 * 3600;

type Dimension = { Name: string; Value: unknown };
const metricsOf = (name: string) =>
  queriesOf(name).flatMap((query) => {
    const stat = (
      query as {
        MetricStat?: {
          Metric: { Namespace: string; MetricName: string; Dimensions?: Dimension[] };
          Period: number;
        };
      }
    ).MetricStat;
    return stat ? [{ id: query.Id, ...stat.Metric, period: stat.Period }] : [];
  });
const watchedExpression = (name: string) =>
  (queriesOf(name) as (MetricQuery & { ReturnData?: boolean })[]).find((query) => query.ReturnData !== false)
    ?.Expression;
const runbook = readFileSync(join(import.meta.dirname, '../../docs/operating.md'), 'utf8');

describe('the alarms', () => {
  it('are six that each mean an action, and the silence alarm when asked for', () => {
    expect(Object.keys(stack.operations.alarmsByName).sort()).toEqual([
      'Broken',
      'Busy',
      'DeadLetters',
      'MailDelayed',
      'Reputation',
      'SignupSilence',
      'Unmailed',
    ]);
  });

  it('each notify the alarm topic when they go off and when they clear', () => {
    const topic = { Ref: logicalIdOf(stack.operations.topic) };
    for (const name of Object.keys(stack.operations.alarmsByName))
      expect(alarm(name), name).toMatchObject({ AlarmActions: [topic], OKActions: [topic] });
  });

  it('each say what they mean and point to their runbook, which docs/operating.md has under their name', () => {
    for (const name of Object.keys(stack.operations.alarmsByName)) {
      const description = String(alarm(name).AlarmDescription);
      expect(description, name).toContain(`First: the runbook, docs/operating.md#${name.toLowerCase()}.`);
      expect(runbook, name).toMatch(new RegExp(`^### ${name}$`, 'm'));
    }
  });

  it('go off when any of their conditions holds, in one period, missing data counting as nothing wrong', () => {
    for (const name of ['Broken', 'Busy', 'MailDelayed', 'DeadLetters', 'Reputation', 'Unmailed'])
      expect(alarm(name), name).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
  });

  it('Broken: the first permanent fault of a signup or a confirmation, or an error of any of the stack’s four functions', () => {
    const handlers = [
      stack.waitlist.handler,
      stack.mailer.requestHandler,
      stack.mailer.handler,
      stack.mailEvents.handler,
    ];
    const metrics = metricsOf('Broken');
    expect(metrics.filter((m) => m.MetricName === METRIC.internal).map((m) => m.Dimensions)).toEqual([
      [{ Name: 'Service', Value: 'waitlist' }],
      [{ Name: 'Service', Value: 'confirm' }],
    ]);
    const errors = metrics.filter((m) => m.Namespace === 'AWS/Lambda');
    expect(errors.map((m) => m.MetricName)).toEqual(handlers.map(() => 'Errors'));
    expect(errors.map((m) => m.Dimensions)).toEqual(
      handlers.map((handler) => [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(handler) } }]),
    );
    expect(watchedExpression('Broken')).toBe(
      `IF(FILL(internal_waitlist, 0) + FILL(internal_confirm, 0) >= 1, 1, 0) + IF(${errors
        .map((m) => `FILL(${m.id}, 0)`)
        .join(' + ')} >= 1, 1, 0)`,
    );
  });

  it('Busy: over 5% of requests, 3 at least, "try again"; any Lambda throttle; or 5 of the throttle’s 429s', () => {
    expect(watchedExpression('Busy')).toBe(
      'IF(IF(unavailable >= 3, 100 * unavailable / MAX([requests, unavailable]), 0) > 5, 1, 0) + ' +
        'IF(FILL(throttles, 0) >= 1, 1, 0) + IF(FILL(throttled, 0) >= 5, 1, 0)',
    );
    const metrics = metricsOf('Busy');
    expect(metrics.map((m) => m.MetricName).sort()).toEqual(
      [
        METRIC.requests,
        METRIC.requests,
        METRIC.unavailable,
        METRIC.unavailable,
        'Throttles',
        'Throttled',
      ].sort(),
    );
    // Lambda's throttles across the account's functions: concurrency is the account's.
    expect(metrics.find((m) => m.MetricName === 'Throttles')?.Dimensions).toBeUndefined();
  });

  it('count the throttle’s 429s from the access log, which holds no visitor’s data', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalIdOf(stack.waitlist.accessLogs) },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [
        { MetricNamespace: METRIC_NAMESPACE, MetricName: 'Throttled', MetricValue: '1' },
      ],
    });
  });

  it('MailDelayed: a late mail, failures with none sent, a pause, a queue’s old mail, or the stream behind, in 15 minutes', () => {
    const metrics = Object.fromEntries(metricsOf('MailDelayed').map((m) => [m.id, m]));
    expect(Object.keys(metrics).sort()).toEqual(
      ['bulk_age', 'failed', 'late', 'paused', 'priority_age', 'sent', 'stream_age'].sort(),
    );
    for (const m of Object.values(metrics)) expect(m.period, m.id).toBe(15 * 60);
    expect(metrics.priority_age?.Dimensions).toEqual([
      {
        Name: 'QueueName',
        Value: { 'Fn::GetAtt': [logicalIdOf(stack.mailer.queues.priority), 'QueueName'] },
      },
    ]);
    expect(metrics.stream_age).toMatchObject({
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.mailer.requestHandler) } }],
    });
    const expression = String(watchedExpression('MailDelayed'));
    expect(expression).toContain('IF(IF(FILL(sent, 0) == 0, FILL(failed, 0), 0) >= 1, 1, 0)');
    expect(expression).toContain(`IF(FILL(priority_age, 0) > ${LATE_MAIL_MINUTES * 60}, 1, 0)`);
    expect(expression).toContain('IF(FILL(stream_age, 0) >= 600000, 1, 0)');
    const bulkDays = Number(expression.match(/FILL\(bulk_age, 0\) > (\d+)/)?.[1]) / DAY_SECONDS;
    expect(bulkDays).toBeGreaterThanOrEqual(1);
    expect(bulkDays).toBeLessThanOrEqual(MAIL_QUEUE_RETENTION_DAYS - 7);
  });

  it('DeadLetters: a mail SES refused for good, and anything in the two other dead-letter queues; not the suppressed mails', () => {
    const metrics = metricsOf('DeadLetters');
    expect(metrics.find((m) => m.id === 'refused')).toMatchObject({ MetricName: METRIC.mailRefused });
    const queues = metrics.filter((m) => m.Namespace === 'AWS/SQS').map((m) => JSON.stringify(m.Dimensions));
    for (const queue of [stack.mailer.requestsDeadLetterQueue, stack.mailEvents.deadLetterQueue])
      expect(queues.some((dimensions) => dimensions.includes(logicalIdOf(queue)))).toBe(true);
    // The mail dead-letter queue also holds the mails to suppressed mailboxes, as expected: its depth is no alarm.
    const mailDeadLetters = logicalIdOf(stack.mailer.queues.deadLetterQueue);
    for (const name of Object.keys(stack.operations.alarmsByName))
      expect(JSON.stringify(alarm(name).Metrics ?? []), name).not.toContain(mailDeadLetters);
  });

  it('Reputation: SES’s account-wide bounce rate at 5% or complaint rate at 0.1%, the highest of an hour', () => {
    const metrics = metricsOf('Reputation');
    expect(
      metrics.map(({ Namespace, MetricName, Dimensions, period }) => ({
        Namespace,
        MetricName,
        Dimensions,
        period,
      })),
    ).toEqual([
      { Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Dimensions: undefined, period: 3600 },
      { Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Dimensions: undefined, period: 3600 },
    ]);
    expect(watchedExpression('Reputation')).toBe(
      'IF(FILL(bounces, 0) >= 0.05, 1, 0) + IF(FILL(complaints, 0) >= 0.001, 1, 0)',
    );
  });

  it('Unmailed: two signups or more in an hour, and no mail queued by mail-requests in it', () => {
    expect(
      metricsOf('Unmailed').map(({ id, Namespace, MetricName, Dimensions, period }) => ({
        id,
        Namespace,
        MetricName,
        Dimensions,
        period,
      })),
    ).toEqual([
      {
        id: 'joined',
        Namespace: METRIC_NAMESPACE,
        MetricName: METRIC.joined,
        Dimensions: [{ Name: 'Service', Value: 'waitlist' }],
        period: 3600,
      },
      {
        id: 'queued',
        Namespace: METRIC_NAMESPACE,
        MetricName: METRIC.mailQueued,
        Dimensions: [{ Name: 'Service', Value: 'mail-requests' }],
        period: 3600,
      },
    ]);
    expect(watchedExpression('Unmailed')).toBe('IF(IF(FILL(queued, 0) == 0, FILL(joined, 0), 0) >= 2, 1, 0)');
  });

  it('go off when no one has joined for the hours given, missing data counting as silence', () => {
    expect(alarm('SignupSilence')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: METRIC.joined,
      Dimensions: [{ Name: 'Service', Value: 'waitlist' }],
      Period: 6 * 3600,
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
  });

  it('keep the silence alarm off unless it is asked for', () => {
    const plain = synthStack({}, new App());
    expect(Object.keys(plain.operations.alarmsByName)).not.toContain('SignupSilence');
  });
});

describe('the alarm topic', () => {
  it('takes only TLS, and mails -c alarmEmail', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@mandje.nl',
      TopicArn: { Ref: logicalIdOf(stack.operations.topic) },
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('lets this account’s CloudWatch alarms publish: its policy replaces SNS’s default one', () => {
    const topic = { Ref: logicalIdOf(stack.operations.topic) };
    const policies = (Object.values(template.findResources('AWS::SNS::TopicPolicy')) as Resource[]).filter(
      (policy) => JSON.stringify(policy.Properties.Topics) === JSON.stringify([topic]),
    );
    expect(policies).toHaveLength(1);
    const { Statement } = (policies[0] as Resource).Properties.PolicyDocument as { Statement: unknown[] };
    expect(Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: topic,
        Condition: {
          StringEquals: { 'aws:SourceAccount': '123456789012' },
          ArnLike: {
            'aws:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:eu-west-1:123456789012:alarm:*'],
              ],
            },
          },
        },
      }),
    );
  });

  it('has no subscription without -c alarmEmail', () => {
    Template.fromStack(synthStack({}, new App())).resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('the dashboard', () => {
  const body = () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    // The body is a JSON text joined with references; the references are enough to find the parts.
    return JSON.stringify(dashboard?.Properties.DashboardBody);
  };

  it.each([
    [
      'visits, signups and confirmations per day, by language',
      /Visits, signups and confirmations per day.*Visits.*Language.*nl.*Joined.*Language.*nl.*Confirmed/,
    ],
    ['the conversion per day', /Signups ÷ visits nl \(%\).*Signups ÷ visits en \(%\).*Confirmed ÷ signups/],
    [
      'signups by source, from the API’s log',
      /SOURCE.*filter Joined > 0.*stats count\(\*\) as signups by source/,
    ],
    ['what became of the mails', /MailSent.*MailFailed.*Bounced.*mail-events.*Complained.*mail-events/],
  ])('shows %s', (_case, pattern) => {
    expect(body()).toMatch(pattern);
  });

  it('shows the state of every alarm', () => {
    const text = body();
    for (const construct of Object.values(stack.operations.alarmsByName))
      expect(text).toContain(logicalIdOf(construct));
  });

  it('is an output, with the alarm topic', () => {
    expect(Object.keys(template.findOutputs('*'))).toEqual(
      expect.arrayContaining(['DashboardUrl', 'AlarmTopicArn']),
    );
  });
});

describe('the functions’ logs', () => {
  it('use Lambda’s JSON format at INFO, the level that keeps the metric lines', () => {
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(
      ([id]) => !id.startsWith('CustomCDKBucketDeployment'),
    ) as [string, Resource][];
    // api, mail-requests, mailer and mail-events.
    expect(functions).toHaveLength(4);
    for (const [, { Properties }] of functions)
      expect(Properties.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
      });
  });
});
