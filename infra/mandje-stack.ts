import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct } from 'constructs';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { CLIENT_RATE_RULE, type ClientRateLimit } from './constructs/client-rate-limit';
import { MailEvents } from './constructs/mail-events';
import { MailSender } from './constructs/mail-sender';
import { Mailer, MailQueues } from './constructs/mailer';
import { Operations } from './constructs/operations';
import { OriginVerifySecret } from './constructs/origin-verify';
import { StaticSite } from './constructs/static-site';
import { WaitlistApi } from './constructs/waitlist-api';

/** Confirmation by mail: who the mails come from, and where that domain's DNS is, if in Route 53. */
export interface ConfirmationSettings {
  /** A plain address, as `hallo@mandje.nl`; SES sends as its domain. */
  mailFrom: string;
  /** The Route 53 public hosted zone holding that domain: the DKIM records are created in it. */
  hostedZone?: { name: string; id: string };
  /** Verified addresses to send to while the account is in SES's sandbox. */
  sesSandboxRecipients?: string[];
  sesMaxSendRate?: number;
}

/** How much the API lets through (docs/deploying.md, "Capacity"). */
export interface CapacitySettings {
  /** The stage's steady requests per second; its burst is twice that. */
  apiRateLimit: number;
  /** Executions reserved for the API function; none unless given. */
  apiReservedConcurrency?: number;
}

export interface MandjeStackProps extends StackProps {
  /** The address the mails name for questions, and DMARC's reports go to (#contract/site-config). */
  contactEmail: string;
  /** The built page (dist/) and functions (dist-functions/). */
  siteDir: string;
  functionsDir: string;
  /** A custom domain, with an ACM certificate for it in us-east-1 (as CloudFront requires). */
  domain?: { names: string[]; certificateArn: string };
  confirmation: ConfirmationSettings;
  capacity?: CapacitySettings;
  /** Who hears the alarms, and after how many hours without a signup that is an alarm too (off if unset). */
  operations?: { alarmEmail?: string; signupSilenceHours?: number };
  /** The per-client limit at the edge, from the us-east-1 companion stack (infra/mandje-stacks.ts). */
  clientRateLimit?: ClientRateLimit;
}

/**
 * Production: the page and the API behind one CloudFront distribution, the mail queues and the mailer that
 * sends from them with SES, the function that hears SES's bounces and complaints, and the operator's alarms.
 */
export class MandjeStack extends Stack {
  public readonly site: StaticSite;
  public readonly waitlist: WaitlistApi;
  public readonly mailSender: MailSender;
  public readonly mailQueues: MailQueues;
  public readonly mailer: Mailer;
  public readonly mailEvents: MailEvents;
  public readonly originVerify: OriginVerifySecret;
  public readonly operations: Operations;

  constructor(scope: Construct, id: string, props: MandjeStackProps) {
    super(scope, id, props);
    const { confirmation, functionsDir } = props;
    const { apiRateLimit = DEFAULT_API_RATE_LIMIT, apiReservedConcurrency } = props.capacity ?? {};

    this.waitlist = new WaitlistApi(this, 'Waitlist', {
      functionsDir,
      throttle: { rateLimit: apiRateLimit, burstLimit: 2 * apiRateLimit },
      reservedConcurrency: apiReservedConcurrency,
    });
    this.originVerify = new OriginVerifySecret(this, 'OriginVerify');
    const { domain, clientRateLimit } = props;
    this.site = new StaticSite(this, 'Site', {
      siteDir: props.siteDir,
      api: this.waitlist.httpApi,
      originVerify: { header: this.originVerify.header, value: this.originVerify.value },
      webAclArn: clientRateLimit?.arn,
      domain: domain && {
        names: domain.names,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
      },
    });

    const { hostedZone } = confirmation;
    this.mailSender = new MailSender(this, 'MailSender', {
      from: confirmation.mailFrom,
      sandboxRecipients: confirmation.sesSandboxRecipients,
      dmarcReportsTo: props.contactEmail,
      hostedZone:
        hostedZone &&
        HostedZone.fromHostedZoneAttributes(this, 'HostedZone', {
          zoneName: hostedZone.name,
          hostedZoneId: hostedZone.id,
        }),
    });
    this.mailQueues = new MailQueues(this, 'MailQueues');
    this.mailer = new Mailer(this, 'Mailer', {
      functionsDir,
      table: this.waitlist.table,
      sender: this.mailSender,
      queues: this.mailQueues,
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
    this.waitlist.handler.addEnvironment('ORIGIN_VERIFY_SECRET', this.originVerify.value);
    this.waitlist.handler.addEnvironment('SITE_ORIGINS', this.site.origins.join(','));

    const { alarmEmail, signupSilenceHours } = props.operations ?? {};
    this.operations = new Operations(this, 'Operations', {
      waitlist: this.waitlist,
      mailer: this.mailer,
      mailEvents: this.mailEvents,
      clientRateLimit: clientRateLimit && {
        webAclName: clientRateLimit.name,
        ruleName: CLIENT_RATE_RULE,
        region: Stack.of(clientRateLimit).region,
      },
      alarmEmail,
      signupSilence: signupSilenceHours ? Duration.hours(signupSilenceHours) : undefined,
    });

    const output = (outputId: string, value: string, description: string) =>
      new CfnOutput(this, outputId, { value, description });
    output('SiteUrl', this.site.url, 'The landing page');
    output(
      'WaitlistEndpoint',
      `${this.site.url}${WAITLIST_PATH}`,
      'The waitlist API, on the site’s own domain',
    );
    output('TableName', this.waitlist.table.tableName, 'The waitlist table');
    output(
      'AnnouncementQueueUrl',
      this.mailQueues.bulk.queueUrl,
      'The bulk mail queue: `npm run waitlist -- announce --send --table` puts an announcement’s recipients on it',
    );
    output(
      'DashboardUrl',
      this.operations.dashboardUrl,
      'The operator’s dashboard: signups, refusals, faults, latency and the alarms',
    );
    output(
      'AlarmTopicArn',
      this.operations.topic.topicArn,
      'Every alarm notifies this SNS topic; -c alarmEmail subscribes one address, add more here',
    );
    // Without a hosted zone, the DNS records are for the operator to add.
    const sender = this.mailSender;
    if (!sender.hasHostedZone) {
      for (const [index, { name, value }] of sender.dkimRecords.entries())
        output(
          `DkimRecord${index + 1}`,
          `${name} CNAME ${value}`,
          `A DNS record for ${sender.domain}: SES signs and sends the confirmation mails once all three are found`,
        );
      const purposes = {
        MailFromMx: `SES takes bounces for ${sender.mailFromDomain}, the MAIL FROM domain, once it is found`,
        MailFromSpf: `SPF for ${sender.mailFromDomain}: SES may send as it, so SPF aligns with ${sender.domain}`,
        Dmarc: `DMARC for ${sender.domain}: receivers quarantine mail that fails it, and report to the contact address`,
      };
      for (const { id: recordId, name, type, value } of sender.authenticationRecords)
        output(
          `${recordId}Record`,
          `${name} ${type} ${value}`,
          `A DNS record for ${sender.domain}. ${purposes[recordId]}`,
        );
    }
  }
}
