import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { MAIL_QUEUE_RETENTION_DAYS, MAILER_CONCURRENCY } from '#contract/mail-pace';
import { OWED_MAILS } from '#contract/waitlist-table';
import { BuiltFunction } from './built-function';
import type { MailSender } from './mail-sender';

/** A batch of mails, each waiting for its turn at its share of SES's pace. */
const MAILER_TIMEOUT = Duration.minutes(3);

const queue = (scope: Construct, queueId: string, visibilityTimeout?: Duration) =>
  new Queue(scope, queueId, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(MAIL_QUEUE_RETENTION_DAYS),
    visibilityTimeout,
  });

/**
 * Every mail on one paced path: `mail-requests` turns the table's stream into jobs on the priority queue;
 * `mailer` sends from it and the bulk queue (an announcement) through SES, and dead-letters a mail that can
 * never be sent itself. No redrive policy: a mail is not given up after some number of tries, it waits.
 */
export class Mailer extends Construct {
  public readonly handler: lambda.Function;
  public readonly requestHandler: lambda.Function;
  public readonly queues: { priority: Queue; bulk: Queue; deadLetterQueue: Queue };
  /** Mails per mailbox in the last day and suppressed mailboxes, by hash (#contract/abuse-limits); the pause. */
  public readonly mailLimitTable: Table;
  /** The stream records mail-requests could not queue in the stream's day: their positions, no address. */
  public readonly requestsDeadLetterQueue: Queue;

  constructor(
    scope: Construct,
    id: string,
    props: {
      functionsDir: string;
      /** The waitlist table, with its stream on. */
      table: ITable;
      sender: MailSender;
      /** The site's https origin, which the links in the mails point to. */
      siteUrl: string;
      contactEmail: string;
      /** SES's maximum send rate, mails per second; without it the mailer asks SES. */
      maxSendRate?: number;
      /** The mail queues' own scope, kept beside the mailer's so their logical IDs stay. */
      queuesIn: Construct;
    },
  ) {
    super(scope, id);
    const { sender, table } = props;
    // Six times the reader's timeout, as Lambda advises for a queue it reads.
    const hidden = Duration.seconds(MAILER_TIMEOUT.toSeconds() * 6);
    const queues = {
      priority: queue(props.queuesIn, 'PriorityQueue', hidden),
      bulk: queue(props.queuesIn, 'BulkQueue', hidden),
      deadLetterQueue: queue(props.queuesIn, 'DeadLetterQueue'),
    };
    this.queues = queues;

    // Retained: a stack deleted and deployed again must not mail an inbox that complained.
    this.mailLimitTable = new Table(this, 'MailLimitTable', {
      partitionKey: { name: MAIL_LIMIT_TABLE_KEY.name, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: MAIL_LIMIT_EXPIRY_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.requestHandler = new BuiltFunction(this, 'Requests', {
      functionsDir: props.functionsDir,
      name: 'mail-requests',
      description: "Mail requests: queue a mail job for each new mail request in the waitlist table's stream",
      timeout: Duration.seconds(60),
      environment: { MAIL_QUEUE_URL: queues.priority.queueUrl },
      permissions: [{ actions: ['sqs:SendMessage'], resources: [queues.priority.queueArn] }],
    }).function;

    this.requestsDeadLetterQueue = queue(this, 'RequestsDeadLetterQueue');
    this.requestHandler.addEventSource(
      new DynamoEventSource(table, {
        // From the oldest record, so a signup written while the mapping is (re)made is still queued.
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        // One batch at a time per shard: far ahead of SES's rate, little of a new account's concurrency.
        batchSize: 100,
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // Retried while the stream keeps the record (24 hours); an hour before, its position is dead-lettered.
        retryAttempts: 10_000,
        maxRecordAge: Duration.hours(23),
        onFailure: new SqsDlq(this.requestsDeadLetterQueue),
        // Changes that leave a record asking for a mail it may owe (OWED_MAILS), one filter per mail, ORed; a
        // mail already sent passes (a filter cannot compare two attributes) and jobsAskedBy skips it.
        filters: Object.values(OWED_MAILS).map((mail) =>
          lambda.FilterCriteria.filter({
            dynamodb: {
              NewImage: {
                ...('status' in mail && { status: { S: lambda.FilterRule.isEqual(mail.status) } }),
                [mail.asked]: { S: lambda.FilterRule.exists() },
              },
            },
          }),
        ),
      }),
    );

    this.handler = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'mailer',
      description:
        'Mailer: send every mail (confirmations, leave links, announcements) from the mail queues at the SES rate',
      timeout: MAILER_TIMEOUT,
      environment: {
        TABLE_NAME: table.tableName,
        MAIL_LIMIT_TABLE_NAME: this.mailLimitTable.tableName,
        SITE_URL: props.siteUrl,
        MAIL_FROM: sender.from,
        CONTACT_EMAIL: props.contactEmail,
        SES_CONFIGURATION_SET: sender.configurationSet.configurationSetName,
        DEAD_LETTER_QUEUE_URL: queues.deadLetterQueue.queueUrl,
        ...(props.maxSendRate !== undefined && { MAIL_MAX_SEND_RATE: String(props.maxSendRate) }),
      },
      permissions: [
        // SES v2's SendEmail with Raw content is authorized as ses:SendRawEmail as well.
        { actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: sender.sendingResources },
        // The day's quota and the pace; GetAccount has no resource-level permission.
        { actions: ['ses:GetAccount'], resources: ['*'] },
        { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [table.tableArn] },
        // The mailbox's window and the sending pause are conditional puts: no update on this table.
        { actions: ['dynamodb:PutItem', 'dynamodb:GetItem'], resources: [this.mailLimitTable.tableArn] },
        { actions: ['sqs:SendMessage'], resources: [queues.deadLetterQueue.queueArn] },
      ],
    }).function;
    // Consuming a queue grants sqs:ChangeMessageVisibility, with which the mailer sets a message's backoff.
    for (const queue of [queues.priority, queues.bulk])
      this.handler.addEventSource(
        new SqsEventSource(queue, {
          batchSize: 10,
          maxBatchingWindow: queue === queues.bulk ? Duration.seconds(1) : undefined,
          reportBatchItemFailures: true,
          maxConcurrency: MAILER_CONCURRENCY,
        }),
      );
  }
}
