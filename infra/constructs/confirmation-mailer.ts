import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, type ITable, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  type Function as LambdaFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import {
  MAIL_REQUEST_MAX_AGE_MINUTES,
  MAIL_RESEND_INTERVAL_MINUTES,
  type WaitlistRecord,
  type WaitlistStatus,
} from '#contract/waitlist-table';
import { BuiltFunction } from './built-function';
import type { MailSender } from './mail-sender';

export interface ConfirmationMailerProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The waitlist table, with its stream on. */
  table: ITable;
  sender: MailSender;
  /** The site's https origin, which the link in the mail points to. */
  siteUrl: string;
  /** The address the mail names for questions (the site's contact address). */
  contactEmail: string;
  logRetention: RetentionDays;
}

/**
 * Sends the confirmation mail for each pending signup, read from the table's stream, at most
 * MAILS_PER_MAILBOX a day to one mailbox, counted in a table of its own. A mail that cannot be sent after a
 * few tries lands in a dead-letter queue, and an alarm says so. The function may send mail as the sender's
 * identity through its configuration set (in SES's sandbox, to the recipients' identities given), update a
 * record of the waitlist and a count of the limit table, read the stream and write to its dead-letter
 * queue, and its own logs; nothing else.
 */
export class ConfirmationMailer extends Construct {
  public readonly handler: LambdaFunction;
  /** Mails per mailbox in the current window, by the SHA-256 of its delivery key (#contract/abuse-limits). */
  public readonly mailLimitTable: Table;
  public readonly deadLetterQueue: Queue;
  public readonly unsentMailAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ConfirmationMailerProps) {
    super(scope, id);

    const { sender } = props;
    // Only hashes that expire within a day: nothing to recover, so no backups, and it may go with the stack.
    this.mailLimitTable = new Table(this, 'MailLimitTable', {
      partitionKey: { name: MAIL_LIMIT_TABLE_KEY.name, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: MAIL_LIMIT_EXPIRY_ATTRIBUTE,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const built = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'mailer',
      description:
        "Confirmation mailer: mail the link to each pending signup from the waitlist table's stream",
      memorySize: 256,
      // A batch is mailed one by one, each a store update and a send that give up within seconds.
      timeout: Duration.seconds(60),
      environment: {
        TABLE_NAME: props.table.tableName,
        SITE_URL: props.siteUrl,
        MAIL_FROM: sender.from,
        CONTACT_EMAIL: props.contactEmail,
        SES_CONFIGURATION_SET: sender.configurationSet.configurationSetName,
        MAIL_LIMIT_TABLE_NAME: this.mailLimitTable.tableName,
      },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['ses:SendEmail'],
          resources: sender.sendingResources,
        }),
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
        }),
        // One conditional update counts a mail and refuses it past the limit.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [this.mailLimitTable.tableArn],
        }),
      ],
      logRetention: props.logRetention,
    });
    this.handler = built.function;

    // What the stream hands over says which records failed (shard and sequence numbers), never an address.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    const pending: WaitlistStatus = 'pending';
    const status: keyof WaitlistRecord = 'status';
    const leaveMailRequestId: keyof WaitlistRecord = 'leaveMailRequestId';
    this.handler.addEventSource(
      new DynamoEventSource(props.table, {
        // Mails are for signups from now on; a new mailer does not mail the stream's last 24 hours again.
        startingPosition: StartingPosition.LATEST,
        // Small batches: a failing mail holds up few others, and a retry sends few again.
        batchSize: 5,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 3,
        maxRecordAge: Duration.minutes(MAIL_REQUEST_MAX_AGE_MINUTES),
        onFailure: new SqsDlq(this.deadLetterQueue),
        // Only changes that leave a record pending invoke it (its own claim among them, which it skips), or
        // that leave it asking for a leave link (the filters are ORed); a confirmation or a removal does not.
        filters: [
          FilterCriteria.filter({ dynamodb: { NewImage: { [status]: { S: FilterRule.isEqual(pending) } } } }),
          FilterCriteria.filter({
            dynamodb: { NewImage: { [leaveMailRequestId]: { S: FilterRule.exists() } } },
          }),
        ],
      }),
    );

    this.unsentMailAlarm = new Alarm(this, 'UnsentMailAlarm', {
      alarmDescription: [
        'A confirmation mail could not be sent, after retries: its stream records are in the dead-letter queue',
        `${this.deadLetterQueue.queueName}. First look at the mailer's logs (${built.logGroup.logGroupName}) for`,
        'the error. The signup stays pending: the visitor can sign up again to get a new mail, once',
        `${MAIL_RESEND_INTERVAL_MINUTES} minutes have passed since the last was asked for. Delete the queue's`,
        'messages once handled.',
      ].join(' '),
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // An empty queue nobody touches reports nothing: no mail has failed.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
