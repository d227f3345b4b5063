import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BuiltFunction } from './built-function';
import type { MailSender } from './mail-sender';

/** The events SES publishes for the mail it sends, each with the detail type it has on EventBridge. */
export const MAIL_EVENTS = [
  { event: EmailSendingEvent.BOUNCE, detailType: 'Email Bounced' },
  { event: EmailSendingEvent.COMPLAINT, detailType: 'Email Complaint Received' },
  { event: EmailSendingEvent.REJECT, detailType: 'Email Rejected' },
  { event: EmailSendingEvent.DELIVERY_DELAY, detailType: 'Email Delivery Delayed' },
] as const;

export interface MailEventsProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The waitlist table, where the record of a mailbox that bounced or complained is marked. */
  table: ITable;
  /** The mail limit table, where the mailbox itself is suppressed, every spelling of it, for good. */
  mailLimitTable: ITable;
  sender: MailSender;
  logRetention: RetentionDays;
}

/**
 * Hears what became of the mail: the sender's configuration set publishes bounces, complaints, rejects and
 * delivery delays to the default EventBridge bus, and a rule hands them to the mail-events function, which
 * suppresses a mailbox that bounced for good or complained so that nothing is mailed to it again. An event
 * that could not be handled, after retries, lands in a dead-letter queue, and an alarm says so. The function
 * may update a record of the waitlist table, put the mailbox's item in the mail limit table, put a failed
 * event in that queue and write its own logs; nothing else.
 */
export class MailEvents extends Construct {
  public readonly handler: LambdaFunction;
  public readonly rule: Rule;
  public readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: MailEventsProps) {
    super(scope, id);
    const { sender } = props;
    // Its messages are SES's events, which name the recipients: kept a week, long enough to handle them.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(7),
    });
    const built = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'mail-events',
      description:
        'Mail events handler: suppress a mailbox that bounced for good or complained, so no mail goes to it again',
      memorySize: 256,
      // A put and an update per recipient of an event, each given up within seconds.
      timeout: Duration.seconds(10),
      environment: {
        TABLE_NAME: props.table.tableName,
        MAIL_LIMIT_TABLE_NAME: props.mailLimitTable.tableName,
      },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
        }),
        // The mailbox's suppression: a conditional put (a complaint replaces a bounce); never read or deleted.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:PutItem'],
          resources: [props.mailLimitTable.tableArn],
        }),
        // Its asynchronous invocations' failure destination, below.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['sqs:SendMessage'],
          resources: [this.deadLetterQueue.queueArn],
        }),
      ],
      logRetention: props.logRetention,
    });
    this.handler = built.function;

    sender.configurationSet.addEventDestination('ToEventBridge', {
      // SES publishes to the default bus only.
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: MAIL_EVENTS.map(({ event }) => event),
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'SES bounces, complaints, rejects and delivery delays of the confirmation mails',
      eventPattern: {
        source: ['aws.ses'],
        detailType: MAIL_EVENTS.map(({ detailType }) => detailType),
        // This stack's mail only, should the account send other mail through the same bus.
        detail: {
          mail: { tags: { 'ses:configuration-set': [sender.configurationSet.configurationSetName] } },
        },
      },
      targets: [
        // EventBridge retries an invocation it could not make (throttled, say), then gives up to the queue.
        new LambdaTarget(this.handler, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 10,
          maxEventAge: Duration.hours(6),
        }),
      ],
    });
    // The invocation is asynchronous: a handler that fails is retried by Lambda, then its event goes to the
    // same queue.
    this.handler.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: { bind: () => ({ destination: this.deadLetterQueue.queueArn }) },
    });
  }
}
