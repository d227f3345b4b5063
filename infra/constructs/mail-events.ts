import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BuiltFunction } from './built-function';
import type { MailSender } from './mail-sender';

/** SES's bounces and complaints, through the default EventBridge bus, to the function that suppresses the mailbox. */
export class MailEvents extends Construct {
  public readonly handler: LambdaFunction;
  public readonly deadLetterQueue: Queue;

  constructor(
    scope: Construct,
    id: string,
    props: { functionsDir: string; table: ITable; mailLimitTable: ITable; sender: MailSender },
  ) {
    super(scope, id);
    const { sender } = props;
    // SES's events name the recipients: kept a week, long enough to handle them.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(7),
    });
    this.handler = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'mail-events',
      description:
        'Mail events handler: suppress a mailbox that bounced for good or complained, so no mail goes to it again',
      timeout: Duration.seconds(10),
      environment: {
        TABLE_NAME: props.table.tableName,
        MAIL_LIMIT_TABLE_NAME: props.mailLimitTable.tableName,
      },
      permissions: [
        { actions: ['dynamodb:UpdateItem'], resources: [props.table.tableArn] },
        // The mailbox's suppression: a conditional put (a complaint replaces a bounce); never read or deleted.
        { actions: ['dynamodb:PutItem'], resources: [props.mailLimitTable.tableArn] },
        { actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] },
      ],
    }).function;

    const { BOUNCE, COMPLAINT, REJECT, DELIVERY_DELAY } = EmailSendingEvent;
    sender.configurationSet.addEventDestination('ToEventBridge', {
      // SES publishes to the default bus only.
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [BOUNCE, COMPLAINT, REJECT, DELIVERY_DELAY],
    });
    new Rule(this, 'Rule', {
      description: 'SES bounces, complaints, rejects and delivery delays of the confirmation mails',
      eventPattern: {
        source: ['aws.ses'],
        detailType: ['Email Bounced', 'Email Complaint Received', 'Email Rejected', 'Email Delivery Delayed'],
        // This stack's mail only, should the account send other mail.
        detail: {
          mail: { tags: { 'ses:configuration-set': [sender.configurationSet.configurationSetName] } },
        },
      },
      targets: [
        new LambdaTarget(this.handler, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 10,
          maxEventAge: Duration.hours(6),
        }),
      ],
    });
    // A handler that fails is retried by Lambda, then its event goes to the same queue.
    this.handler.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: { bind: () => ({ destination: this.deadLetterQueue.queueArn }) },
    });
  }
}
