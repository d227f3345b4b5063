import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { MAIL_QUEUE_RETENTION_DAYS, MAILER_CONCURRENCY } from '#contract/mail-pace';
import type { WaitlistRecord, WaitlistStatus } from '#contract/waitlist-table';
import { BuiltFunction } from './built-function';
import type { MailQueues } from './mail-queues';
import type { MailSender } from './mail-sender';

export interface MailerProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The waitlist table, with its stream on. */
  table: ITable;
  sender: MailSender;
  /** Where mail waits for its turn (MailQueues, made with MAILER_TIMEOUT as its reader's timeout). */
  queues: MailQueues;
  /** The site's https origin, which the links in the mails point to. */
  siteUrl: string;
  /** The address the mails name for questions (the site's contact address). */
  contactEmail: string;
  /** SES's maximum send rate, mails per second (`-c sesMaxSendRate`); without it the mailer takes SES's. */
  maxSendRate?: number;
  logRetention: RetentionDays;
}

/** The mailer's invocation: a batch of mails, each waiting for its turn at its share of SES's pace. */
export const MAILER_TIMEOUT = Duration.minutes(3);

/**
 * Every mail the product sends, on one paced path (docs/deploying.md, "Capacity"):
 * - `mail-requests` reads the waitlist table's stream and puts one job per new mail request (a signup, a
 *   later signup of a pending address, a leave-link request) on the priority queue. It may read the stream,
 *   send to that queue and to its own dead-letter queue, and nothing else: no SES, no table writes.
 * - `mailer` reads both queues (the priority queue, and the bulk queue the operator's tool fills with an announcement)
 *   and sends each mail through SES at the account's maximum send rate, each of its MAILER_CONCURRENCY
 *   invocations per queue at its share, the announcement at most BULK_SHARE of it. The per-mailbox limit
 *   (MAILS_PER_MAILBOX) and the pause are items of the mail limit table. A mail that can never be sent it moves to the
 *   dead-letter queue itself. It may send as the sender's identity through its configuration set, read
 *   SES's account (its daily quota, and its rate without `maxSendRate`), read and update records, put,
 *   read and update items of the limit table, consume the two queues and send to the dead-letter queue;
 *   nothing else.
 */
export class Mailer extends Construct {
  /** The sender of every mail. */
  public readonly handler: LambdaFunction;
  /** From the table's stream to the priority queue. */
  public readonly requestHandler: LambdaFunction;
  public readonly queues: MailQueues;
  /**
   * The limit table: mails per mailbox in the last 24 hours, by the SHA-256 of its delivery key
   * (#contract/abuse-limits), the mailboxes that bounced or complained (written by mail-events), and the
   * mailer's pause.
   */
  public readonly mailLimitTable: Table;
  /** The stream records mail-requests could not queue in the stream's day: their positions, no address. */
  public readonly requestsDeadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: MailerProps) {
    super(scope, id);
    const { sender, table, queues } = props;
    this.queues = queues;

    // Hashes only. The counts expire within a day; the suppressed mailboxes are kept for good,
    // and no function deletes them, so the table outlives the stack, as the waitlist does (a stack deleted
    // and deployed again must not mail an inbox that complained), without backups.
    this.mailLimitTable = new Table(this, 'MailLimitTable', {
      partitionKey: { name: MAIL_LIMIT_TABLE_KEY.name, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: MAIL_LIMIT_EXPIRY_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const requests = new BuiltFunction(this, 'Requests', {
      functionsDir: props.functionsDir,
      name: 'mail-requests',
      description: "Mail requests: queue a mail job for each new mail request in the waitlist table's stream",
      memorySize: 256,
      // A batch is one SendMessageBatch per record, each given up within seconds.
      timeout: Duration.seconds(60),
      environment: { MAIL_QUEUE_URL: queues.priority.queueUrl },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sqs:SendMessage'],
          resources: [queues.priority.queueArn],
        }),
      ],
      logRetention: props.logRetention,
    });
    this.requestHandler = requests.function;

    // What the stream hands over says which records failed (shard and sequence numbers), never an address.
    this.requestsDeadLetterQueue = new Queue(this, 'RequestsDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(MAIL_QUEUE_RETENTION_DAYS),
    });
    const pending: WaitlistStatus = 'pending';
    const status: keyof WaitlistRecord = 'status';
    const leaveMailRequestId: keyof WaitlistRecord = 'leaveMailRequestId';
    this.requestHandler.addEventSource(
      new DynamoEventSource(table, {
        // From the stream's oldest record: when this mapping is first made (a first deploy, or replacing the
        // mapping before it), a signup written meanwhile is still queued. A job for a mail already sent is
        // superseded when it is read (request-mail.ts), so replaying the day mails nobody twice.
        startingPosition: StartingPosition.TRIM_HORIZON,
        // Queuing a request takes milliseconds, and the mail leaves at SES's rate (about 14 a second once
        // in production) whatever this does: one batch of up to 100 at a time per shard queues far ahead
        // of that, and keeps this function to one execution per shard of the account's concurrency (a new
        // account may have 10 in all).
        batchSize: 100,
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // Retried for as long as the stream keeps the record (24 hours) rather than dropped: a failure here
        // is SQS or the role, which a retry (or a fix) mends. An hour before the stream would trim it
        // unseen, its position goes to the dead-letter queue, with an alarm.
        retryAttempts: 10_000,
        maxRecordAge: Duration.hours(23),
        onFailure: new SqsDlq(this.requestsDeadLetterQueue),
        // Only changes that leave a record pending (the mailer's own claims among them, which jobsAskedBy
        // skips), or that leave it asking for a leave link (the filters are ORed); a confirmation or a
        // removal does not.
        filters: [
          FilterCriteria.filter({ dynamodb: { NewImage: { [status]: { S: FilterRule.isEqual(pending) } } } }),
          FilterCriteria.filter({
            dynamodb: { NewImage: { [leaveMailRequestId]: { S: FilterRule.exists() } } },
          }),
        ],
      }),
    );

    const mailer = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'mailer',
      description:
        'Mailer: send every mail (confirmations, leave links, announcements) from the mail queues at the SES rate',
      memorySize: 256,
      // A batch waits for its turns; what the time left cannot send goes back to its queue.
      timeout: MAILER_TIMEOUT,
      environment: {
        TABLE_NAME: table.tableName,
        MAIL_LIMIT_TABLE_NAME: this.mailLimitTable.tableName,
        SITE_URL: props.siteUrl,
        MAIL_FROM: sender.from,
        CONTACT_EMAIL: props.contactEmail,
        SES_CONFIGURATION_SET: sender.configurationSet.configurationSetName,
        DEAD_LETTER_QUEUE_URL: queues.deadLetterQueue.queueUrl,
        ...(props.maxSendRate !== undefined ? { MAIL_MAX_SEND_RATE: String(props.maxSendRate) } : {}),
      },
      permissions: [
        // SES v2's SendEmail with Raw content is authorized as ses:SendRawEmail as well.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: sender.sendingResources,
        }),
        // The day's quota (and the pace, when no setting gives it): GetAccount has no resource-level
        // permission.
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['ses:GetAccount'], resources: ['*'] }),
        // A record read as it is now (consistent), claimed and marked; the announcement's state items read
        // and its progress counted.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          resources: [table.tableArn],
        }),
        // The pause is a put and a read, the mailbox limit a read and an update.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
          resources: [this.mailLimitTable.tableArn],
        }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sqs:SendMessage'],
          resources: [queues.deadLetterQueue.queueArn],
        }),
      ],
      logRetention: props.logRetention,
    });
    this.handler = mailer.function;
    // MAILER_CONCURRENCY invocations per queue at most: each keeps that share of its lane's pace
    // (functions/mailer/mail-sender.ts). Consuming a queue grants sqs:ChangeMessageVisibility, with which
    // the mailer sets a message's backoff.
    this.handler.addEventSource(
      new SqsEventSource(queues.priority, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: MAILER_CONCURRENCY,
      }),
    );
    this.handler.addEventSource(
      new SqsEventSource(queues.bulk, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: MAILER_CONCURRENCY,
      }),
    );
  }
}
