import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  type CfnFunction,
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ANNOUNCEMENT_STATE_PREFIX, PLANNING_PHASE } from '../../functions/announce/announcement-keys';
import { BuiltFunction } from './built-function';
import type { MailSender } from './mail-sender';

export interface AnnouncementSenderProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The waitlist table, with its stream on: the announcement's state item lives there and starts the planner. */
  table: ITable;
  sender: MailSender;
  /** The site's https origin, which the leave links point to. */
  siteUrl: string;
  /** The address the mail names for questions (the site's contact address). */
  contactEmail: string;
  logRetention: RetentionDays;
}

/** The sender's invocation: a batch of recipients, each waiting its turn at the rate. */
const SENDER_TIMEOUT = Duration.minutes(3);

/**
 * The announcement, sent inside AWS (the operator's tool only starts and follows it):
 * - the tool writes the announcement's state item (`#announcement#<id>`: texts, rate, pass) to the waitlist
 *   table; the table's stream hands it to the planner, filtered to that key and phase `planning`;
 * - the planner reads the table page by page and puts each recipient on the queue, recording its place in
 *   the state item after each step, which starts the next step (the stream again) until the table's end;
 * - the sender, with reserved concurrency 1 so one pacer holds the rate, sends each recipient's mail at the
 *   state's rate, claiming the record first so nobody gets two; SES throttling is waited out and, when
 *   time runs short, the message returns to the queue;
 * - a message that keeps failing, or a planning step that does, lands in the dead-letter queue, and an
 *   alarm says so.
 * The planner may scan the table, update state items only, and put messages on the queue; the sender may
 * read state items, update records and progress items, send as the sender's identity through its
 * configuration set, and consume the queue; nothing else.
 */
export class AnnouncementSender extends Construct {
  public readonly planner: LambdaFunction;
  public readonly sender: LambdaFunction;
  public readonly queue: Queue;
  public readonly deadLetterQueue: Queue;
  public readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: AnnouncementSenderProps) {
    super(scope, id);
    const { table, sender } = props;
    const stateItems = {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${ANNOUNCEMENT_STATE_PREFIX}*`] },
    };

    // Messages name recipients (their addresses): encrypted, TLS only, and kept no longer than needed.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      // Six times the sender's timeout, as Lambda advises for a queue it reads.
      visibilityTimeout: Duration.seconds(SENDER_TIMEOUT.toSeconds() * 6),
      // Generous: with reserved concurrency 1, Lambda's own throttling of the pollers counts as receives too.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 10 },
    });

    const planner = new BuiltFunction(this, 'Planner', {
      functionsDir: props.functionsDir,
      name: 'announce-planner',
      description:
        'Announcement planner: queue the recipients of an announcement, a few pages of the table a step',
      memorySize: 256,
      timeout: Duration.minutes(2),
      environment: { TABLE_NAME: table.tableName, QUEUE_URL: this.queue.queueUrl },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:Scan'],
          resources: [table.tableArn],
        }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: stateItems,
        }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sqs:SendMessage'],
          resources: [this.queue.queueArn],
        }),
      ],
      logRetention: props.logRetention,
    });
    this.planner = planner.function;
    this.planner.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 1,
        retryAttempts: 5,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          FilterCriteria.filter({
            dynamodb: {
              Keys: { email: { S: FilterRule.beginsWith(ANNOUNCEMENT_STATE_PREFIX) } },
              NewImage: { phase: { S: FilterRule.isEqual(PLANNING_PHASE) } },
            },
          }),
        ],
      }),
    );

    const built = new BuiltFunction(this, 'Sender', {
      functionsDir: props.functionsDir,
      name: 'announce-sender',
      description: 'Announcement sender: mail each queued recipient once, at the rate the announcement sets',
      memorySize: 256,
      timeout: SENDER_TIMEOUT,
      environment: {
        TABLE_NAME: table.tableName,
        SITE_URL: props.siteUrl,
        MAIL_FROM: sender.from,
        CONTACT_EMAIL: props.contactEmail,
        SES_CONFIGURATION_SET: sender.configurationSet.configurationSetName,
      },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['ses:SendEmail'],
          resources: sender.sendingResources,
        }),
        // Claiming and marking a record, its link keys, and the progress counts.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
        }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem'],
          resources: [table.tableArn],
          conditions: stateItems,
        }),
      ],
      logRetention: props.logRetention,
    });
    this.sender = built.function;
    // One sender at a time: its pacer is the rate.
    (this.sender.node.defaultChild as CfnFunction).reservedConcurrentExecutions = 1;
    this.sender.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
      }),
    );

    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: [
        'An announcement mail or planning step failed after retries: it is in the dead-letter queue',
        `${this.deadLetterQueue.queueName}. Look at the sender's logs (${built.logGroup.logGroupName}) and the`,
        `planner's (${planner.logGroup.logGroupName}) for the error; fix it, then run the same announce command`,
        'again: it plans whoever is still owed the mail, and nobody gets two. Delete the messages once handled.',
      ].join(' '),
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
