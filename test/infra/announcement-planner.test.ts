import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: Record<
  | 'table'
  | 'queue'
  | 'deadLetterQueue'
  | 'planner'
  | 'plannerRole'
  | 'plannerLogs'
  | 'sender'
  | 'senderRole'
  | 'senderLogs'
  | 'alarm'
  | 'topic',
  string
>;

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const logWrites = (logs: string) => ({
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: { 'Fn::Join': ['', [arnOf(logs), ':*']] },
});
const STATE_ITEMS_ONLY = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['#announcement#*'] } };

function mappingOf(functionId: string): Resource {
  const mappings = (
    Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as Resource[]
  ).filter(
    (mapping) => JSON.stringify(mapping.Properties.FunctionName) === JSON.stringify({ Ref: functionId }),
  );
  expect(mappings).toHaveLength(1);
  return mappings[0] as Resource;
}

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  const announcements = present(stack.announcements, 'announcements');
  ids = {
    table: logicalIdOf(stack.waitlist.table),
    queue: logicalIdOf(announcements.queue),
    deadLetterQueue: logicalIdOf(announcements.deadLetterQueue),
    planner: logicalIdOf(announcements.planner),
    plannerRole: logicalIdOf(present(announcements.planner.role, 'planner role')),
    plannerLogs: logicalIdOf(announcements.planner.logGroup),
    sender: logicalIdOf(announcements.sender),
    senderRole: logicalIdOf(present(announcements.sender.role, 'sender role')),
    senderLogs: logicalIdOf(announcements.sender.logGroup),
    alarm: logicalIdOf(announcements.deadLetterAlarm),
    topic: logicalIdOf(stack.operations.topic),
  };
});

describe('the planner', () => {
  it('is started by the table’s stream, for announcement state items in phase planning only', () => {
    const { Properties } = mappingOf(ids.planner);
    expect(Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [ids.table, 'StreamArn'] });
    expect(Properties.FilterCriteria).toEqual({
      Filters: [
        {
          Pattern: JSON.stringify({
            dynamodb: {
              Keys: { email: { S: [{ prefix: '#announcement#' }] } },
              NewImage: { phase: { S: ['planning'] } },
            },
          }),
        },
      ],
    });
  });

  it('hands a step that keeps failing to the dead-letter queue after a bounded number of retries', () => {
    expect(mappingOf(ids.planner).Properties).toMatchObject({
      BatchSize: 1,
      MaximumRetryAttempts: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: arnOf(ids.deadLetterQueue) } },
    });
  });

  it('may scan the table, update announcement state items only, fill the queue, read the stream and write its logs', () => {
    expect(statementsOf(template, ids.plannerRole)).toEqual([
      logWrites(ids.plannerLogs),
      { Effect: 'Allow', Action: 'dynamodb:Scan', Resource: arnOf(ids.table) },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: arnOf(ids.table),
        Condition: STATE_ITEMS_ONLY,
      },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arnOf(ids.queue) },
      {
        Effect: 'Allow',
        Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
        Resource: arnOf(ids.deadLetterQueue),
      },
      { Effect: 'Allow', Action: 'dynamodb:ListStreams', Resource: '*' },
      {
        Effect: 'Allow',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: { 'Fn::GetAtt': [ids.table, 'StreamArn'] },
      },
    ]);
    expect(resourceOf(template, ids.plannerRole).Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('the sender', () => {
  it('runs one at a time, so its pacer is the announcement’s rate', () => {
    expect(resourceOf(template, ids.sender).Properties.ReservedConcurrentExecutions).toBe(1);
  });

  it('reads the queue in batches, returning only the messages it could not send', () => {
    expect(mappingOf(ids.sender).Properties).toMatchObject({
      EventSourceArn: arnOf(ids.queue),
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('may send as the sender’s identity, update records, read announcement state items only, consume its queue and write its logs', () => {
    const [logs, ses, ...rest] = statementsOf(template, ids.senderRole);
    expect(logs).toEqual(logWrites(ids.senderLogs));
    expect(ses).toMatchObject({ Effect: 'Allow', Action: 'ses:SendEmail' });
    expect(rest).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: arnOf(ids.table) },
      {
        Effect: 'Allow',
        Action: 'dynamodb:GetItem',
        Resource: arnOf(ids.table),
        Condition: STATE_ITEMS_ONLY,
      },
      {
        Effect: 'Allow',
        Action: [
          'sqs:ReceiveMessage',
          'sqs:ChangeMessageVisibility',
          'sqs:GetQueueUrl',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
        ],
        Resource: arnOf(ids.queue),
      },
    ]);
  });

  it('is told the table, the site for the leave links, the sender, the contact address and the configuration set', () => {
    const { Variables } = resourceOf(template, ids.sender).Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    expect(Object.keys(Variables).sort()).toEqual([
      'CONTACT_EMAIL',
      'MAIL_FROM',
      'SES_CONFIGURATION_SET',
      'SITE_URL',
      'TABLE_NAME',
    ]);
  });
});

describe('the queue', () => {
  it('keeps a message that keeps failing in the dead-letter queue, encrypted and over TLS only', () => {
    expect(resourceOf(template, ids.queue).Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: arnOf(ids.deadLetterQueue), maxReceiveCount: 10 },
      VisibilityTimeout: 6 * 180,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: ids.queue }],
      PolicyDocument: {
        Statement: [
          {
            Action: 'sqs:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Resource: arnOf(ids.queue),
          },
        ],
      },
    });
  });
});

describe('the dead-letter alarm', () => {
  it('goes off at the first message in the dead-letter queue and notifies the alarm topic', () => {
    expect(resourceOf(template, ids.alarm).Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.deadLetterQueue, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: ids.topic }],
    });
  });
});

describe('without confirmation by mail', () => {
  it('there is no sender identity, so no announcement mechanism', () => {
    expect(synthStack({ confirmation: false }).announcements).toBeUndefined();
  });
});
