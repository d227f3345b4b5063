import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { logicalIdOf, propertiesOf, resourcesOf, synthStack } from './synth';

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  stack = synthStack({ operations: { alarmEmail: 'ops@mandje.nl', signupSilenceHours: 6 } });
  template = Template.fromStack(stack);
});

type Metric = { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] };
/** What an alarm watches: `namespace metric service-or-resource, period in minutes`. */
function watched(name: string): string[] {
  const alarm = propertiesOf(template, stack.operations.alarmsByName[name] as never);
  const stats = alarm.Metrics
    ? (alarm.Metrics as { MetricStat?: { Metric: Metric; Period: number } }[]).flatMap(({ MetricStat }) =>
        MetricStat ? [{ ...MetricStat.Metric, Period: MetricStat.Period }] : [],
      )
    : [alarm as unknown as Metric & { Period: number }];
  return stats.map(({ Namespace, MetricName, Dimensions = [], Period }) => {
    const on = Dimensions.map(({ Value }) => {
      const ref = Value as { Ref?: string; 'Fn::GetAtt'?: string[] };
      return String(ref.Ref ?? ref['Fn::GetAtt']?.[0] ?? Value).replace(/[0-9A-F]{8}$/, '');
    });
    return [Namespace, MetricName, ...on, `${Period / 60} min`].join(' ');
  });
}

describe('the alarms', () => {
  it('each watch the metrics of what they mean', () => {
    const names = Object.keys(stack.operations.alarmsByName);
    expect(Object.fromEntries(names.map((name) => [name, watched(name)]))).toEqual({
      Broken: [
        'Mandje Internal waitlist 5 min',
        'Mandje Internal confirm 5 min',
        ...['WaitlistHandler', 'MailerRequests', 'MailerHandler', 'MailEventsHandler'].map(
          (fn) => `AWS/Lambda Errors ${fn}Function 5 min`,
        ),
      ],
      Busy: [
        'Mandje Unavailable waitlist 5 min',
        'Mandje Unavailable confirm 5 min',
        'Mandje Requests waitlist 5 min',
        'Mandje Requests confirm 5 min',
        'AWS/Lambda Throttles 5 min',
        'Mandje Throttled 5 min',
      ],
      DeadLetters: [
        'Mandje MailRefused mailer 5 min',
        'AWS/SQS ApproximateNumberOfMessagesVisible MailerRequestsDeadLetterQueue 5 min',
        'AWS/SQS ApproximateNumberOfMessagesVisible MailEventsDeadLetterQueue 5 min',
      ],
      MailDelayed: [
        'Mandje MailLate mailer 15 min',
        'Mandje MailFailed mailer 15 min',
        'Mandje MailSent mailer 15 min',
        'Mandje MailPaused mailer 15 min',
        'AWS/SQS ApproximateAgeOfOldestMessage MailQueuesPriorityQueue 15 min',
        'AWS/SQS ApproximateAgeOfOldestMessage MailQueuesBulkQueue 15 min',
        'AWS/Lambda IteratorAge MailerRequestsFunction 15 min',
      ],
      Reputation: ['AWS/SES Reputation.BounceRate 60 min', 'AWS/SES Reputation.ComplaintRate 60 min'],
      SignupSilence: ['Mandje Joined waitlist 360 min'],
      Unmailed: ['Mandje Joined waitlist 60 min', 'Mandje MailQueued mail-requests 60 min'],
    });
  });

  it('each notify the alarm topic when they go off and when they clear, and name their runbook', () => {
    const topic = { Ref: logicalIdOf(stack.operations.topic) };
    const runbook = readFileSync(join(import.meta.dirname, '../../docs/operating.md'), 'utf8');
    for (const [name, construct] of Object.entries(stack.operations.alarmsByName)) {
      const alarm = propertiesOf(template, construct);
      expect(alarm, name).toMatchObject({ AlarmActions: [topic], OKActions: [topic], Threshold: 1 });
      expect(alarm.AlarmDescription, name).toContain(`docs/operating.md#${name.toLowerCase()}.`);
      expect(runbook, name).toMatch(new RegExp(`^### ${name}$`, 'm'));
      expect(alarm.TreatMissingData).toBe(name === 'SignupSilence' ? 'breaching' : 'notBreaching');
    }
  });

  it('mail -c alarmEmail, and keep the silence alarm off unless it is asked for', () => {
    expect(resourcesOf(template, 'AWS::SNS::Subscription')[0]?.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: 'ops@mandje.nl',
    });
    const plain = synthStack();
    expect(Object.keys(plain.operations.alarmsByName)).not.toContain('SignupSilence');
    Template.fromStack(plain).resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('the dashboard', () => {
  it('shows every alarm, the funnel by language, signups by source and what became of the mails', () => {
    const body = JSON.stringify(
      resourcesOf(template, 'AWS::CloudWatch::Dashboard')[0]?.Properties.DashboardBody,
    );
    for (const construct of Object.values(stack.operations.alarmsByName))
      expect(body).toContain(logicalIdOf(construct));
    for (const shown of [
      /Visits.*Language.*nl.*Joined.*Language.*nl.*Confirmed/,
      /Signups ÷ visits nl \(%\).*Signups ÷ visits en \(%\).*Confirmed ÷ signups/,
      /stats count\(\*\) as signups by source/,
      /MailSent.*MailFailed.*Bounced.*Complained/,
    ])
      expect(body).toMatch(shown);
  });

  it('reads the functions’ JSON logs at INFO (the metric lines’ level), from Node.js 24 on arm64, as tested', () => {
    const ours = resourcesOf(template, 'AWS::Lambda::Function').filter(
      ({ Properties }) => Properties.LoggingConfig,
    );
    expect(ours).toHaveLength(4);
    const logs = { LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'INFO' };
    for (const { Properties } of ours)
      expect(Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        LoggingConfig: logs,
      });
  });
});
