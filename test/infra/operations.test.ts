import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC, METRIC_NAMESPACE } from '#contract/metrics';
import { THROTTLED_METRIC } from '../../infra/constructs/operations';
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
const expressionOf = (name: string) => queriesOf(name).find((query) => query.Id === 'expr_1')?.Expression;
const metricNamesOf = (name: string) =>
  queriesOf(name)
    .flatMap((query) => (query.MetricStat ? [query.MetricStat.Metric.MetricName] : []))
    .sort();

describe('the alarms', () => {
  it('are these, each named for what it watches', () => {
    expect(Object.keys(stack.operations.alarmsByName).sort()).toEqual(
      [
        'Api429',
        'Api5xx',
        'BounceRate',
        'Broken',
        'Busy',
        'ComplaintRate',
        'AnnouncementStuck',
        'ConfirmFunctionErrors',
        'ConfirmFunctionThrottles',
        'MailEventsFunctionErrors',
        'MailEventsFunctionThrottles',
        'MailFailing',
        'MailLate',
        'MailPaused',
        'MailRefused',
        'MailRequestsBehind',
        'MailRequestsFunctionErrors',
        'MailRequestsFunctionThrottles',
        'MailStuck',
        'MailerFunctionErrors',
        'MailerFunctionThrottles',
        'SignupSilence',
        'UnhandledMailEvent',
        'UnqueuedMail',
        'WaitlistFunctionErrors',
        'WaitlistFunctionThrottles',
      ].sort(),
    );
  });

  it('each notify the alarm topic when they go off and when they clear', () => {
    const topic = { Ref: logicalIdOf(stack.operations.topic) };
    for (const name of Object.keys(stack.operations.alarmsByName))
      expect(alarm(name), name).toMatchObject({ AlarmActions: [topic], OKActions: [topic] });
  });

  it('each say what they mean and what to do first', () => {
    for (const name of Object.keys(stack.operations.alarmsByName)) {
      const description = JSON.stringify(alarm(name).AlarmDescription);
      expect(description.length, name).toBeGreaterThan(120);
      expect(description, name).toMatch(/First/);
    }
  });

  it('go off at the first permanent fault of either API', () => {
    expect(expressionOf('Broken')).toBe('FILL(internal_waitlist, 0) + FILL(internal_confirm, 0)');
    expect(metricNamesOf('Broken')).toEqual([METRIC.internal, METRIC.internal]);
    expect(alarm('Broken')).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('go off when more than 5% of requests, 3 at least, are "try again" for 10 minutes', () => {
    expect(expressionOf('Busy')).toBe('IF(u >= 3, 100 * u / MAX([r, u]), 0)');
    expect(metricNamesOf('Busy')).toEqual([
      METRIC.requests,
      METRIC.requests,
      METRIC.unavailable,
      METRIC.unavailable,
    ]);
    expect(alarm('Busy')).toMatchObject({
      Threshold: 5,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
    });
  });

  it.each([
    ['WaitlistFunctionErrors', 'Errors'],
    ['ConfirmFunctionErrors', 'Errors'],
    ['MailerFunctionErrors', 'Errors'],
    ['MailRequestsFunctionErrors', 'Errors'],
    ['MailEventsFunctionErrors', 'Errors'],
    ['WaitlistFunctionThrottles', 'Throttles'],
    ['ConfirmFunctionThrottles', 'Throttles'],
    ['MailerFunctionThrottles', 'Throttles'],
    ['MailRequestsFunctionThrottles', 'Throttles'],
    ['MailEventsFunctionThrottles', 'Throttles'],
  ])('%s: any %s of that function', (name, metricName) => {
    const handlers = {
      Waitlist: stack.waitlist.handler,
      Confirm: stack.confirmApi.handler,
      Mailer: stack.mailer.handler,
      MailRequests: stack.mailer.requestHandler,
      MailEvents: stack.mailEvents.handler,
    };
    const handler = handlers[name.replace(/Function.*/, '') as keyof typeof handlers];
    expect(alarm(name)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: metricName,
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(handler as never) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('go off at 5 API 5xx answers in 5 minutes', () => {
    expect(alarm('Api5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalIdOf(stack.waitlist.httpApi) } }],
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('count the throttle’s 429s from the access log, which holds no visitor’s data, and go off at 5', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalIdOf(stack.waitlist.accessLogs) },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [
        { MetricNamespace: METRIC_NAMESPACE, MetricName: THROTTLED_METRIC, MetricValue: '1' },
      ],
    });
    expect(alarm('Api429')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: THROTTLED_METRIC,
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
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

  it.each([
    ['BounceRate', 'Reputation.BounceRate', 0.05],
    ['ComplaintRate', 'Reputation.ComplaintRate', 0.001],
  ])('%s: SES’s account-wide %s at %s or more, the highest of an hour', (name, metricName, threshold) => {
    expect(alarm(name)).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: metricName,
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm(name).Dimensions).toBeUndefined();
  });

  it('tell the operator of a bad reputation where to look and to hold back mail first', () => {
    for (const name of ['BounceRate', 'ComplaintRate']) {
      const description = String(alarm(name).AlarmDescription);
      expect(description, name).toMatch(/mail-events function's log/);
      expect(description, name).toMatch(/announcement/);
      expect(description, name).toMatch(/flood/);
    }
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
      'signups per hour by language',
      /Signups per hour, by language.*Joined.*Language.*nl.*Joined.*Language.*en/,
    ],
    ['duplicates, invalid and robots', /AlreadyRegistered.*Invalid.*Honeypot/],
    ['faults by class', /SEARCH\('\{Mandje,Service,FaultClass\} MetricName=\\+"Faults\\+"'/],
    ['p50 and p99 latency', /Latency.*p50.*Latency.*p99/],
    ['the 429s and the API’s 5xx', /Throttled.*5xx/],
    ['SES’s bounce and complaint rates', /Reputation\.BounceRate.*Reputation\.ComplaintRate/],
    ['what SES said of the mails', /Bounced.*Complained.*Rejected.*DeliveryDelayed/],
    ['the mails not sent, limited or suppressed', /MailLimited.*MailSuppressed/],
    ['the mail lag, p50 and p99', /Mail lag.*MailLag.*p50.*MailLag.*p99/],
    ['mails sent, late, throttled and refused', /MailSent.*MailLate.*MailThrottled.*MailRefused/],
    [
      'the mail queues’ depths and oldest mail',
      /ApproximateNumberOfMessagesVisible.*priority.*bulk.*dead-letter.*ApproximateAgeOfOldestMessage/,
    ],
    ['the 403s of both functions', /Forbidden.*waitlist.*Forbidden.*confirm/],
    [
      'the posts the edge turned away',
      /AWS\/WAFV2.*BlockedRequests.*MandjeEdge-client-rate-limit.*PostsPerClient.*us-east-1/,
    ],
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
    // waitlist, confirm, leave, leave-request, mail-requests, mailer, mail-events and announce-planner.
    expect(functions).toHaveLength(8);
    for (const [, { Properties }] of functions)
      expect(Properties.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
      });
  });
});
