import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: {
  table: string;
  mailLimitTable: string;
  handler: string;
  role: string;
  logs: string;
  rule: string;
  deadLetterQueue: string;
  configurationSet: string;
};

const only = (type: string): Resource => {
  const all = Object.values(template.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};
const queueArn = () => ({ 'Fn::GetAtt': [ids.deadLetterQueue, 'Arn'] });

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  const mailEvents = present(stack.mailEvents, 'mail events');
  ids = {
    table: logicalIdOf(stack.waitlist.table),
    mailLimitTable: logicalIdOf(present(stack.mailer, 'mailer').mailLimitTable),
    handler: logicalIdOf(mailEvents.handler),
    role: logicalIdOf(present(mailEvents.handler.role, 'mail events role')),
    logs: logicalIdOf(mailEvents.handler.logGroup),
    rule: logicalIdOf(mailEvents.node.findChild('Rule')),
    deadLetterQueue: logicalIdOf(mailEvents.deadLetterQueue),
    configurationSet: logicalIdOf(present(stack.mailSender, 'mail sender').configurationSet),
  };
});

describe('the configuration set’s event destination', () => {
  // Bounces and complaints reaching mail-events through it are held on the production path (test/aws),
  // whose SES publishes what this destination declares; SES's mailbox simulator sends neither of these two.
  it('also publishes rejects and delivery delays', () => {
    const { EventDestination } = only('AWS::SES::ConfigurationSetEventDestination').Properties as {
      EventDestination: { MatchingEventTypes: string[] };
    };
    expect(EventDestination.MatchingEventTypes).toEqual(expect.arrayContaining(['reject', 'deliveryDelay']));
  });
});

describe('the rule', () => {
  it('matches SES’s four kinds of event, for this stack’s configuration set only', () => {
    expect(resourceOf(template, ids.rule).Properties.EventPattern).toEqual({
      source: ['aws.ses'],
      'detail-type': [
        'Email Bounced',
        'Email Complaint Received',
        'Email Rejected',
        'Email Delivery Delayed',
      ],
      detail: { mail: { tags: { 'ses:configuration-set': [{ Ref: ids.configurationSet }] } } },
    });
  });

  it('invokes the mail-events function, retrying a bounded number of times before its dead-letter queue', () => {
    expect(resourceOf(template, ids.rule).Properties.Targets).toEqual([
      {
        Id: 'Target0',
        Arn: { 'Fn::GetAtt': [ids.handler, 'Arn'] },
        DeadLetterConfig: { Arn: queueArn() },
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 6 * 3600 },
      },
    ]);
  });

  it('may put what it could not deliver in the queue, and no other rule may', () => {
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: ids.deadLetterQueue }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'events.amazonaws.com' },
            Action: 'sqs:SendMessage',
            Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [ids.rule, 'Arn'] } } },
          }),
        ]),
      },
    });
  });
});

describe('the mail-events function', () => {
  it('may update records of the waitlist table (UpdateItem only), put items in the mail limit table (PutItem only), fill its dead-letter queue and write its own logs', () => {
    expect(statementsOf(template, ids.role)).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.logs, 'Arn'] }, ':*']] },
      },
      { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: { 'Fn::GetAtt': [ids.table, 'Arn'] } },
      {
        Effect: 'Allow',
        Action: 'dynamodb:PutItem',
        Resource: { 'Fn::GetAtt': [ids.mailLimitTable, 'Arn'] },
      },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queueArn() },
    ]);
    expect(resourceOf(template, ids.role).Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('has a role of its own, which no other function uses', () => {
    const roles = (Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]).map((fn) =>
      JSON.stringify(fn.Properties.Role),
    );
    expect(roles.filter((role) => role === JSON.stringify({ 'Fn::GetAtt': [ids.role, 'Arn'] }))).toHaveLength(
      1,
    );
  });

  it('writes to a log group of its own', () => {
    expect(resourceOf(template, ids.handler).Properties.LoggingConfig).toMatchObject({
      LogGroup: { Ref: ids.logs },
    });
  });

  it('hands an event it failed to handle, after Lambda’s retries, to the same dead-letter queue', () => {
    expect(only('AWS::Lambda::EventInvokeConfig').Properties).toMatchObject({
      FunctionName: { Ref: ids.handler },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: queueArn() } },
    });
  });
});

describe('the dead-letter queue of unhandled events', () => {
  it('is encrypted, refuses plain HTTP, and keeps the events (which name recipients) a week', () => {
    expect(resourceOf(template, ids.deadLetterQueue).Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 7 * 24 * 3600,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: ids.deadLetterQueue }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});
