import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { MailEvents } from './constructs/mail-events';
import { MailSender, type MailSettings } from './constructs/mail-sender';
import { Mailer } from './constructs/mailer';
import { Operations } from './constructs/operations';
import { StaticSite } from './constructs/static-site';
import { WaitlistApi } from './constructs/waitlist-api';

export interface MandjeStackProps extends StackProps {
  /** The address the mails name for questions, and DMARC's reports go to. */
  contactEmail: string;
  /** The built page (dist/) and functions (dist-functions/). */
  siteDir: string;
  functionsDir: string;
  /** A custom domain, with an ACM certificate for it in us-east-1 (as CloudFront requires). */
  domain?: { names: string[]; certificateArn: string };
  confirmation: MailSettings;
  capacity?: { apiRateLimit: number; apiReservedConcurrency?: number };
  operations?: { alarmEmail?: string; signupSilenceHours?: number };
  /** The per-client limit at the edge: the web ACL of MandjeEdgeStack. */
  webAclArn?: string;
}

// Raise by one to rotate the origin secret (docs/deploying.md): a new secret, handed to all before the old goes.
const ORIGIN_VERIFY_GENERATION = 1;

/** The page and the API behind one CloudFront distribution, the mail path through SES, and the alarms. */
export class MandjeStack extends Stack {
  public readonly site: StaticSite;
  public readonly waitlist: WaitlistApi;
  public readonly mailSender: MailSender;
  public readonly mailer: Mailer;
  public readonly mailEvents: MailEvents;
  public readonly originVerifySecret: Secret;
  public readonly operations: Operations;

  constructor(scope: Construct, id: string, props: MandjeStackProps) {
    super(scope, id, props);
    const { confirmation, functionsDir } = props;
    this.waitlist = new WaitlistApi(this, 'Waitlist', {
      functionsDir,
      apiRateLimit: DEFAULT_API_RATE_LIMIT,
      ...props.capacity,
    });
    const originVerify = new Construct(this, 'OriginVerify');
    this.originVerifySecret = new Secret(originVerify, `Generation${ORIGIN_VERIFY_GENERATION}`, {
      description: `Mandje: the value CloudFront sends to the API in ${ORIGIN_VERIFY_HEADER}`,
      // Letters and digits only: it travels as a header value and an environment variable, unquoted.
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // A generation left behind protects nothing.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const originSecret = this.originVerifySecret.secretValue.unsafeUnwrap();
    this.site = new StaticSite(this, 'Site', {
      siteDir: props.siteDir,
      api: this.waitlist.httpApi,
      originSecret,
      webAclArn: props.webAclArn,
      domain: props.domain,
    });
    this.mailSender = new MailSender(this, 'MailSender', { ...confirmation, dmarcTo: props.contactEmail });
    this.mailer = new Mailer(this, 'Mailer', {
      functionsDir,
      table: this.waitlist.table,
      sender: this.mailSender,
      queuesIn: new Construct(this, 'MailQueues'),
      siteUrl: this.site.url,
      contactEmail: props.contactEmail,
      maxSendRate: confirmation.sesMaxSendRate,
    });
    this.mailEvents = new MailEvents(this, 'MailEvents', {
      functionsDir,
      table: this.waitlist.table,
      mailLimitTable: this.mailer.mailLimitTable,
      sender: this.mailSender,
    });

    // The API refuses a request that did not come through the distribution, and another site's post.
    this.waitlist.handler.addEnvironment('ORIGIN_VERIFY_SECRET', originSecret);
    this.waitlist.handler.addEnvironment('SITE_ORIGINS', this.site.origins.join(','));

    this.operations = new Operations(this, 'Operations', {
      waitlist: this.waitlist,
      mailer: this.mailer,
      mailEvents: this.mailEvents,
      ...props.operations,
    });

    const outputs: Record<string, [value: string, description: string]> = {
      SiteUrl: [this.site.url, 'The landing page'],
      WaitlistEndpoint: [`${this.site.url}${WAITLIST_PATH}`, 'The waitlist API, on the site’s own domain'],
      TableName: [this.waitlist.table.tableName, 'The waitlist table'],
      AnnouncementQueueUrl: [this.mailer.queues.bulk.queueUrl, 'The bulk mail queue, for `announce --send`'],
      MailLimitTableName: [
        this.mailer.mailLimitTable.tableName,
        'The mail limit’s table, suppressed mailboxes in it',
      ],
      DashboardUrl: [
        this.operations.dashboardUrl,
        'The operator’s dashboard: the alarms, the funnel and the mails',
      ],
      AlarmTopicArn: [this.operations.topic.topicArn, 'Every alarm notifies this SNS topic (-c alarmEmail)'],
    };
    // Without a hosted zone, the DNS records are for the operator to add.
    if (!confirmation.hostedZone)
      for (const { id: recordId, name, type, value, description } of this.mailSender.dnsRecords)
        outputs[recordId] = [`${name} ${type} ${value}`, description];
    for (const [outputId, [value, description]] of Object.entries(outputs))
      new CfnOutput(this, outputId, { value, description });
  }
}
