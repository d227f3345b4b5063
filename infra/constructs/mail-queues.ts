import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_QUEUE_RETENTION_DAYS } from '#contract/mail-pace';

export interface MailQueuesProps {
  /** The timeout of the function that reads the queues (the mailer): a message stays hidden six times that. */
  consumerTimeout: Duration;
}

/**
 * Where mail waits for its turn at SES's pace (README, "Capacity"): the priority queue (confirmation and
 * leave-link mails, which go first) and the bulk queue (an announcement's recipients). Both keep a message
 * as long as SQS can, and neither has a redrive policy: a mail is not given up after some number of tries,
 * it waits. Only a mail that can never be sent (SES refused it for good, its mailbox bounced or complained,
 * the message is unreadable) leaves them, moved by the mailer itself to the dead-letter queue with its
 * class and the reason as message attributes. Messages name recipients: encrypted, TLS only.
 */
export class MailQueues extends Construct {
  public readonly priority: Queue;
  public readonly bulk: Queue;
  /** The mails that can never be sent; kept as long as the queues keep theirs, for the operator to read. */
  public readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: MailQueuesProps) {
    super(scope, id);
    const retentionPeriod = Duration.days(MAIL_QUEUE_RETENTION_DAYS);
    const queue = (queueId: string) =>
      new Queue(this, queueId, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod,
        // Six times the reader's timeout, as Lambda advises for a queue it reads.
        visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
      });
    this.priority = queue('PriorityQueue');
    this.bulk = queue('BulkQueue');
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod,
    });
  }
}
