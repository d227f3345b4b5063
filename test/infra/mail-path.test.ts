import { marshall } from '@aws-sdk/util-dynamodb';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAIL_QUEUE_RETENTION_DAYS } from '#contract/mail-pace';
import { DEFAULT_SITE_CONFIG as siteConfig } from '#contract/site-config';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { jobsOwedBy } from '../../functions/mailer/mail-job';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: Record<
  | 'table'
  | 'priority'
  | 'bulk'
  | 'deadLetterQueue'
  | 'requestsDeadLetterQueue'
  | 'mailer'
  | 'mailerRole'
  | 'mailerLogs'
  | 'requests'
  | 'requestsRole'
  | 'requestsLogs'
  | 'mailLimitTable'
  | 'identity'
  | 'configurationSet'
  | 'topic',
  string
>;

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const logWrites = (logs: string) => ({
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: { 'Fn::Join': ['', [arnOf(logs), ':*']] },
});
const sesArn = (resource: string, logicalId: string) => ({
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, `:ses:eu-west-1:123456789012:${resource}/`, { Ref: logicalId }],
  ],
});
const CONSUMING = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];
const DAY = 24 * 60 * 60;

/** Lambda's event filtering, as far as the stream's patterns use it: a list of values or `{ exists }`. */
const matches = (pattern: object, value: unknown): boolean =>
  Object.entries(pattern).every(([key, rule]) => {
    const field = (value as Record<string, unknown> | undefined)?.[key];
    return Array.isArray(rule)
      ? rule.some((one) => (typeof one === 'object' ? one.exists === (field !== undefined) : one === field))
      : matches(rule, field);
  });

function mappingsOf(functionId: string): Resource[] {
  return (Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as Resource[]).filter(
    (mapping) => JSON.stringify(mapping.Properties.FunctionName) === JSON.stringify({ Ref: functionId }),
  );
}
const mappingFrom = (functionId: string, queueId: string) => {
  const mappings = mappingsOf(functionId).filter(
    (mapping) => JSON.stringify(mapping.Properties.EventSourceArn) === JSON.stringify(arnOf(queueId)),
  );
  expect(mappings).toHaveLength(1);
  return (mappings[0] as Resource).Properties;
};
const streamMapping = () => {
  const mappings = mappingsOf(ids.requests);
  expect(mappings).toHaveLength(1);
  return (mappings[0] as Resource).Properties;
};
const environmentOf = (id: string) =>
  (resourceOf(template, id).Properties.Environment as { Variables: Record<string, unknown> }).Variables;

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  const mailer = present(stack.mailer, 'mailer');
  const sender = present(stack.mailSender, 'mail sender');
  ids = {
    table: logicalIdOf(stack.waitlist.table),
    priority: logicalIdOf(mailer.queues.priority),
    bulk: logicalIdOf(mailer.queues.bulk),
    deadLetterQueue: logicalIdOf(mailer.queues.deadLetterQueue),
    requestsDeadLetterQueue: logicalIdOf(mailer.requestsDeadLetterQueue),
    mailer: logicalIdOf(mailer.handler),
    mailerRole: logicalIdOf(present(mailer.handler.role, 'mailer role')),
    mailerLogs: logicalIdOf(mailer.handler.logGroup),
    requests: logicalIdOf(mailer.requestHandler),
    requestsRole: logicalIdOf(present(mailer.requestHandler.role, 'mail-requests role')),
    requestsLogs: logicalIdOf(mailer.requestHandler.logGroup),
    mailLimitTable: logicalIdOf(mailer.mailLimitTable),
    identity: logicalIdOf(sender.identity),
    configurationSet: logicalIdOf(sender.configurationSet),
    topic: logicalIdOf(stack.operations.topic),
  };
});

describe('the mail queues', () => {
  it.each(['priority', 'bulk'] as const)(
    'the %s queue keeps mail 14 days, encrypted, hidden six times the mailer’s timeout while it is sent',
    (lane) => {
      expect(resourceOf(template, ids[lane]).Properties).toEqual({
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: MAIL_QUEUE_RETENTION_DAYS * DAY,
        VisibilityTimeout: 6 * 180,
      });
    },
  );

  it('have no redrive policy: no mail is given up after a number of receives', () => {
    for (const lane of ['priority', 'bulk'] as const)
      expect(resourceOf(template, ids[lane]).Properties.RedrivePolicy, lane).toBeUndefined();
    const redrives = (Object.values(template.findResources('AWS::SQS::Queue')) as Resource[]).filter(
      (queue) => queue.Properties.RedrivePolicy !== undefined,
    );
    expect(redrives).toEqual([]);
  });

  it('keep never-sendable mail in one dead-letter queue for 14 days, encrypted', () => {
    expect(resourceOf(template, ids.deadLetterQueue).Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: MAIL_QUEUE_RETENTION_DAYS * DAY,
    });
  });

  it.each(['priority', 'bulk', 'deadLetterQueue', 'requestsDeadLetterQueue'] as const)(
    '%s refuses requests without TLS',
    (queue) => {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: ids[queue] }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    },
  );
});

describe('mail-requests, from the table’s stream to the priority queue', () => {
  it('is invoked for every record that owes a mail by the mailer’s rule, which the runner’s scan uses too', () => {
    const { EventSourceArn, FilterCriteria } = streamMapping() as {
      EventSourceArn: unknown;
      FilterCriteria: { Filters: { Pattern: string }[] };
    };
    expect(EventSourceArn).toEqual({ 'Fn::GetAtt': [ids.table, 'StreamArn'] });
    const patterns: object[] = FilterCriteria.Filters.map(({ Pattern }) => JSON.parse(Pattern));
    const passes = (record: object) =>
      patterns.some((pattern) => matches(pattern, { dynamodb: { NewImage: marshall(record) } }));
    const ann = { email: 'ann@example.nl', status: 'pending' };
    const confirmed = { ...ann, status: 'confirmed' };
    // The record, whether it owes a mail, whether the stream's filter lets its change through.
    const cases: [object, boolean, boolean][] = [
      [{ ...ann, mailRequestId: 'r1' }, true, true],
      [{ ...ann, mailRequestId: 'r2', mailedRequestId: 'r1' }, true, true],
      [{ ...confirmed, leaveMailRequestId: 'l1' }, true, true],
      [{ ...confirmed, leaveMailRequestId: 'l2', leaveMailedRequestId: 'l1' }, true, true],
      [ann, false, false],
      [{ ...confirmed, mailRequestId: 'r1' }, false, false],
      [{ email: '#left', count: 3 }, false, false],
      // Sent: a filter cannot compare two attributes, so the change passes and jobsAskedBy finds nothing new.
      [{ ...ann, mailRequestId: 'r1', mailedRequestId: 'r1' }, false, true],
      [{ ...confirmed, leaveMailRequestId: 'l1', leaveMailedRequestId: 'l1' }, false, true],
    ];
    for (const [record, owes, streamPasses] of cases) {
      expect(jobsOwedBy(record as WaitlistRecord).length > 0, JSON.stringify(record)).toBe(owes);
      expect(passes(record), JSON.stringify(record)).toBe(streamPasses);
    }
  });

  it('retries a failing record for most of the stream’s day instead of dropping it after an hour', () => {
    expect(streamMapping()).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10_000,
      MaximumRecordAgeInSeconds: 23 * 60 * 60,
    });
    expect(streamMapping().MaximumRecordAgeInSeconds).not.toBe(60 * 60);
  });

  it('may send to the priority queue, read the stream and fill its dead-letter queue: no SES, no table writes', () => {
    expect(statementsOf(template, ids.requestsRole)).toEqual([
      logWrites(ids.requestsLogs),
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arnOf(ids.priority) },
      {
        Effect: 'Allow',
        Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
        Resource: arnOf(ids.requestsDeadLetterQueue),
      },
      { Effect: 'Allow', Action: 'dynamodb:ListStreams', Resource: '*' },
      {
        Effect: 'Allow',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: { 'Fn::GetAtt': [ids.table, 'StreamArn'] },
      },
    ]);
    expect(JSON.stringify(statementsOf(template, ids.requestsRole))).not.toMatch(/ses:|PutItem|UpdateItem/);
  });
});

describe('the mailer, the one sender of every mail', () => {
  it('reads the priority queue in batches of 10 at once, two invocations at most, returning what it did not send', () => {
    expect(mappingFrom(ids.mailer, ids.priority)).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    expect(mappingFrom(ids.mailer, ids.priority).MaximumBatchingWindowInSeconds).toBeUndefined();
  });

  it('reads the bulk queue in batches of 10 gathered for up to a second, two invocations at most', () => {
    expect(mappingFrom(ids.mailer, ids.bulk)).toMatchObject({
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
  });

  it('has no other event source: no stream', () => {
    expect(mappingsOf(ids.mailer)).toHaveLength(2);
  });

  it('has no reserved concurrency: its pace is shared through the limit table, not one invocation', () => {
    expect(resourceOf(template, ids.mailer).Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('runs 3 minutes at most, with 256 MB', () => {
    expect(resourceOf(template, ids.mailer).Properties).toMatchObject({ Timeout: 180, MemorySize: 256 });
  });

  it('is told the site, the sender, the contact address and the dead-letter queue; SES gives the rate', () => {
    expect(environmentOf(ids.mailer)).toMatchObject({
      SITE_URL: stack.resolve(stack.site.url),
      MAIL_FROM: MAIL_FROM,
      CONTACT_EMAIL: siteConfig.contactEmail,
      DEAD_LETTER_QUEUE_URL: { Ref: ids.deadLetterQueue },
    });
    expect(environmentOf(ids.mailer).MAIL_MAX_SEND_RATE).toBeUndefined();
  });

  it('may send as the identity, read SES’s account, read and update records, pace in the limit table, consume both queues and fill the dead-letter queue, and nothing else', () => {
    const statements = statementsOf(template, ids.mailerRole);
    const expected = [
      logWrites(ids.mailerLogs),
      {
        Effect: 'Allow',
        Action: ['ses:SendEmail', 'ses:SendRawEmail'],
        Resource: [sesArn('identity', ids.identity), sesArn('configuration-set', ids.configurationSet)],
      },
      { Effect: 'Allow', Action: 'ses:GetAccount', Resource: '*' },
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: arnOf(ids.table) },
      {
        Effect: 'Allow',
        Action: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: arnOf(ids.mailLimitTable),
      },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arnOf(ids.deadLetterQueue) },
      { Effect: 'Allow', Action: CONSUMING, Resource: arnOf(ids.priority) },
      { Effect: 'Allow', Action: CONSUMING, Resource: arnOf(ids.bulk) },
    ];
    expect(statements).toHaveLength(expected.length);
    expect(statements).toEqual(expect.arrayContaining(expected));
    expect(JSON.stringify(statements)).not.toMatch(/Scan|Query|DeleteItem|ListStreams/);
    expect(resourceOf(template, ids.mailerRole).Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('with -c sesMaxSendRate is told the rate, and still reads SES’s account for the day’s quota', () => {
    const app = new App({ context: { mailFrom: MAIL_FROM, sesMaxSendRate: '14' } });
    const paced = synthStack(deploySettings(app), app);
    const mailer = present(paced.mailer, 'mailer').handler;
    const pacedTemplate = Template.fromStack(paced);
    const { Variables } = resourceOf(pacedTemplate, logicalIdOf(mailer)).Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    expect(Variables.MAIL_MAX_SEND_RATE).toBe('14');
    const actions = statementsOf(pacedTemplate, logicalIdOf(present(mailer.role, 'mailer role'))).flatMap(
      ({ Action }) => Action,
    );
    expect(actions).toEqual(expect.arrayContaining(['ses:SendEmail', 'ses:SendRawEmail', 'ses:GetAccount']));
  });
});

describe('the mail limit table', () => {
  it('is written by the mailer (the pause, the per-mailbox count) and by mail-events (a suppressed mailbox, put only)', () => {
    const limitTableArn = JSON.stringify(arnOf(ids.mailLimitTable));
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Resource[];
    const granting = policies.flatMap((policy) =>
      (
        policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }
      ).Statement.filter((statement) => JSON.stringify(statement.Resource).includes(limitTableArn)).map(
        (statement) => ({ roles: policy.Properties.Roles, action: statement.Action }),
      ),
    );
    const mailEventsRole = logicalIdOf(
      present(present(stack.mailEvents, 'mail events').handler.role, 'role'),
    );
    expect(granting).toEqual(
      expect.arrayContaining([
        {
          roles: [{ Ref: ids.mailerRole }],
          action: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
        },
        { roles: [{ Ref: mailEventsRole }], action: 'dynamodb:PutItem' },
      ]),
    );
    expect(granting).toHaveLength(2);
  });
});
