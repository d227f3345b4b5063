import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: Record<
  'table' | 'queue' | 'deadLetterQueue' | 'planner' | 'plannerRole' | 'plannerLogs' | 'topic',
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
    queue: logicalIdOf(present(stack.mailQueues, 'mail queues').bulk),
    deadLetterQueue: logicalIdOf(announcements.deadLetterQueue),
    planner: logicalIdOf(announcements.planner),
    plannerRole: logicalIdOf(present(announcements.planner.role, 'planner role')),
    plannerLogs: logicalIdOf(announcements.planner.logGroup),
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

  it('may scan the table, update announcement state items only, fill the bulk mail queue, read the stream and write its logs', () => {
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

describe('the announcement’s mail', () => {
  it('is sent by the mailer, from the bulk queue the planner fills: there is no sender of its own', () => {
    const mailer = present(stack.mailer, 'mailer');
    expect(ids.queue).toBe(logicalIdOf(mailer.queues.bulk));
    const functions = Object.keys(template.findResources('AWS::Lambda::Function'));
    expect(functions.filter((id) => /Announce/i.test(id))).toEqual([ids.planner]);
  });
});
