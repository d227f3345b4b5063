import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ANNOUNCEMENT_STATE_PREFIX, PLANNING_PHASE } from '#contract/announcement-keys';
import { BuiltFunction } from './built-function';

export interface AnnouncementPlannerProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The waitlist table, with its stream on: the announcement's state item lives there and starts the planner. */
  table: ITable;
  /** The bulk mail queue (MailQueues), which the mailer sends from at SES's pace. */
  queue: IQueue;
  logRetention: RetentionDays;
}

/**
 * The announcement, planned inside AWS (the operator's tool only starts and follows it):
 * - the tool writes the announcement's state item (`#announcement#<id>`: texts, rate, pass) to the waitlist
 *   table; the table's stream hands it to the planner, filtered to that key and phase `planning`;
 * - the planner reads the table page by page and puts each recipient on the bulk mail queue, recording its
 *   place in the state item after each step, which starts the next step (the stream again) until the
 *   table's end;
 * - the mailer (Mailer) sends them, after any confirmation mail, claiming each record first so nobody gets
 *   two;
 * - a planning step that keeps failing lands in the planner's dead-letter queue, and an alarm says so.
 * The planner may scan the table, update state items only, and put messages on the bulk queue; nothing else.
 */
export class AnnouncementPlanner extends Construct {
  public readonly planner: LambdaFunction;
  public readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: AnnouncementPlannerProps) {
    super(scope, id);
    const { table, queue } = props;
    const stateItems = {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${ANNOUNCEMENT_STATE_PREFIX}*`] },
    };

    // What the stream hands over says which step failed (shard and sequence numbers), never an address.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    const planner = new BuiltFunction(this, 'Planner', {
      functionsDir: props.functionsDir,
      name: 'announce-planner',
      description:
        'Announcement planner: queue the recipients of an announcement, a few pages of the table a step',
      memorySize: 256,
      timeout: Duration.minutes(2),
      environment: { TABLE_NAME: table.tableName, QUEUE_URL: queue.queueUrl },
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
          resources: [queue.queueArn],
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
  }
}
