import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
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
import { LATE_MAIL_MINUTES, MAIL_QUEUE_RETENTION_DAYS } from '#contract/mail-pace';
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName } from '#contract/metrics';
import {
  MAIL_RESEND_INTERVAL_MINUTES,
  type WaitlistRecord,
  type WaitlistStatus,
} from '#contract/waitlist-table';
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

/** The mailer's invocation: a batch of mails, each waiting for its send slot at SES's pace. */
export const MAILER_TIMEOUT = Duration.minutes(3);

/**
 * A queue's oldest announcement mail this old means the announcement is stuck, with days left before SQS
 * would drop it (MAIL_QUEUE_RETENTION_DAYS). An announcement to many people at a low rate takes long by
 * itself (100,000 at 1 mail a second: 28 hours), so this is far above a slow send.
 */
export const BULK_MAIL_STUCK_DAYS = 3;

/** How far the stream may be behind before queuing the mail requests is an alarm. */
const REQUESTS_BEHIND_MINUTES = 10;

/** How long mail may fail with none sent before that is an alarm. */
const FAILING_MINUTES = 15;

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Every mail the product sends, on one paced path (README, "Capacity"):
 * - `mail-requests` reads the waitlist table's stream and puts one job per new mail request (a signup, a
 *   later signup of a pending address, a leave-link request) on the priority queue. It may read the stream,
 *   send to that queue and to its own dead-letter queue, and nothing else: no SES, no table writes.
 * - `mailer` reads both queues (the priority queue, and the bulk queue the announcement's planner fills)
 *   and sends each mail through SES at the account's maximum send rate, priority first. The send slots,
 *   the priority lane's hold and the per-mailbox limit (MAILS_PER_MAILBOX) are items of the mail limit
 *   table, so two invocations per queue share one pace. A mail that can never be sent it moves to the
 *   dead-letter queue itself. It may send as the sender's identity through its configuration set, read
 *   SES's account (its daily quota, and its rate without `maxSendRate`), read and update records, put,
 *   read and update items of the limit table, consume the two queues and send to the dead-letter queue;
 *   nothing else.
 * The alarms say when mail is late, refused, failing, paused, stuck or not queued.
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
   * send slots and priority hold that pace the mailer.
   */
  public readonly mailLimitTable: Table;
  /** The stream records mail-requests could not queue in the stream's day: their positions, no address. */
  public readonly requestsDeadLetterQueue: Queue;
  /** The mail alarms, by name, for the operator's topic (infra/constructs/operations.ts). */
  public readonly alarms: Record<
    | 'MailLate'
    | 'MailRefused'
    | 'MailFailing'
    | 'MailPaused'
    | 'MailStuck'
    | 'AnnouncementStuck'
    | 'UnqueuedMail'
    | 'MailRequestsBehind',
    Alarm
  >;

  constructor(scope: Construct, id: string, props: MailerProps) {
    super(scope, id);
    const { sender, table, queues } = props;
    this.queues = queues;

    // Hashes only. The counts and slots expire within a day; the suppressed mailboxes are kept for good,
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
      // A batch waits for its send slots; what the time left cannot send goes back to its queue.
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
        // Send slots are conditional puts, the priority hold a put and a read, the mailbox limit an update.
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
    // No reserved concurrency: the pace lives in the limit table, so invocations may run side by side. Two
    // per queue keep each lane going while one waits for slots. Consuming a queue grants
    // sqs:ChangeMessageVisibility, with which the mailer sets a message's backoff.
    this.handler.addEventSource(
      new SqsEventSource(queues.priority, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: 2,
      }),
    );
    this.handler.addEventSource(
      new SqsEventSource(queues.bulk, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: 2,
      }),
    );

    const mailerLogs = mailer.logGroup.logGroupName;
    const mailerMetric = (name: MetricName) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { [DIMENSIONS.service]: 'mailer' },
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    const atLeastOne = {
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No mail, no figure: nothing wrong.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    };
    const oldest = (queue: Queue) =>
      queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' });

    this.alarms = {
      MailLate: new Alarm(this, 'MailLateAlarm', {
        alarmDescription: [
          `Mail went out late: a mail left more than ${LATE_MAIL_MINUTES} minutes after it was asked for. It was`,
          'sent; more is coming in than SES’s maximum send rate lets out. First look at the dashboard’s mail lag',
          'and queue depths: a signup spike or an announcement drains by itself at that rate. If it keeps up, ask',
          'AWS for a higher SES sending rate (SES console, Account dashboard), and deploy with the new',
          '-c sesMaxSendRate if that is set.',
        ].join(' '),
        metric: mailerMetric(METRIC.mailLate),
        ...atLeastOne,
      }),
      MailRefused: new Alarm(this, 'MailRefusedAlarm', {
        alarmDescription: [
          'SES refused a mail for good (not a throttle): it was moved to the dead-letter queue',
          `${queues.deadLetterQueue.queueName}, with its class and reason as message attributes. First read the`,
          `mailer's log (${mailerLogs}) at level ERROR for the error's name: an unverified sender or sandbox`,
          'recipient, a paused account, a rejected message. Fix that; a confirmation comes again when the person',
          `signs up again (after ${MAIL_RESEND_INTERVAL_MINUTES} minutes). Mails to bounced or complained mailboxes`,
          'land there too (reason suppressed), as expected. Delete the messages once handled.',
        ].join(' '),
        metric: mailerMetric(METRIC.mailRefused),
        ...atLeastOne,
      }),
      // A mail received and failed again and again keeps its queue's oldest message young (each receive
      // counts), so MailStuck may never see it: this counts the failures themselves.
      MailFailing: new Alarm(this, 'MailFailingAlarm', {
        alarmDescription: [
          `Mail is failing and none goes out: in the last ${FAILING_MINUTES} minutes the mailer could not send`,
          'a mail and sent not one. The mails stay on their queues and are tried again; one failing for about',
          "a day goes to the mail dead-letter queue (the refused alarm). First read the mailer's log",
          `(${mailerLogs}) at level ERROR for the error and its fault class: SES or DynamoDB unreachable or`,
          'timing out for long, access denied, a bug after a deploy (roll it back). The mail-paused alarm, if it',
          'is on too, names a set-up fault.',
        ].join(' '),
        metric: new MathExpression({
          // The failures of a window in which nothing was sent; 0 once a mail goes.
          expression: 'IF(FILL(sent, 0) == 0, FILL(failed, 0), 0)',
          usingMetrics: { failed: mailerMetric(METRIC.mailFailed), sent: mailerMetric(METRIC.mailSent) },
          label: 'Mails failed, none sent',
          period: Duration.minutes(FAILING_MINUTES),
        }),
        ...atLeastOne,
      }),
      MailPaused: new Alarm(this, 'MailPausedAlarm', {
        alarmDescription: [
          'Mail sending is paused by a set-up fault: access denied, the sending domain not verified, the account',
          "in the SES sandbox, SES sending paused, or the day's quota spent. The mails wait on their queues",
          `(${MAIL_QUEUE_RETENTION_DAYS} days) and go by themselves once the cause is gone. First read the`,
          `mailer's log (${mailerLogs}) at level ERROR for the error's name; see docs/deploying.md's launch`,
          'checklist.',
        ].join(' '),
        metric: mailerMetric(METRIC.mailPaused),
        ...atLeastOne,
      }),
      MailStuck: new Alarm(this, 'MailStuckAlarm', {
        alarmDescription: [
          `A confirmation or leave-link mail has waited more than ${LATE_MAIL_MINUTES} minutes in the priority`,
          `queue ${queues.priority.queueName}: the mailer is not sending it. First look at the mailer's errors`,
          `alarm and its log (${mailerLogs}): access denied, SES paused, a bug. The mails wait in the queue`,
          `(${MAIL_QUEUE_RETENTION_DAYS} days) and go once it is fixed; none is lost before then.`,
        ].join(' '),
        metric: oldest(queues.priority),
        threshold: LATE_MAIL_MINUTES * 60,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      AnnouncementStuck: new Alarm(this, 'AnnouncementStuckAlarm', {
        alarmDescription: [
          `An announcement mail has waited more than ${BULK_MAIL_STUCK_DAYS} days in the bulk queue`,
          `${queues.bulk.queueName}; SQS drops it after ${MAIL_QUEUE_RETENTION_DAYS}. First follow the`,
          'announcement with the operator tool (announce <id> --table …) and read the mailer’s log',
          `(${mailerLogs}): a rate far below the list's size, or mail failing. Nobody gets two: once fixed, the`,
          'same announce command finishes the pass.',
        ].join(' '),
        metric: oldest(queues.bulk),
        threshold: Duration.days(BULK_MAIL_STUCK_DAYS).toSeconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      UnqueuedMail: new Alarm(this, 'UnqueuedMailAlarm', {
        alarmDescription: [
          'A mail request could not be put on the mail queue in the 23 hours the stream keeps retrying it: its',
          `stream position (no address) is in the dead-letter queue ${this.requestsDeadLetterQueue.queueName}.`,
          `First read the mail-requests function's log (${requests.logGroup.logGroupName}) for the error. The`,
          'signup stays pending: the person can sign up again for a new mail, once',
          `${MAIL_RESEND_INTERVAL_MINUTES} minutes have passed since the last was asked for. Delete the messages once handled.`,
        ].join(' '),
        metric: this.requestsDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        ...atLeastOne,
      }),
      MailRequestsBehind: new Alarm(this, 'MailRequestsBehindAlarm', {
        alarmDescription: [
          `Mail requests are not being queued: the table's stream is more than ${REQUESTS_BEHIND_MINUTES} minutes`,
          'behind in the mail-requests function, which retries a failing record rather than drop it. First',
          `read its log (${requests.logGroup.logGroupName}) for "mail not queued" and the error's name (access`,
          'denied, the queue missing). Once fixed it catches up by itself; a record the stream keeps a day goes',
          'to its dead-letter queue an hour before that.',
        ].join(' '),
        metric: this.requestHandler.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
        threshold: Duration.minutes(REQUESTS_BEHIND_MINUTES).toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    };
  }
}
