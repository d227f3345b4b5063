import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct } from 'constructs';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { CLIENT_RATE_RULE, type ClientRateLimit } from './constructs/client-rate-limit';
import { MailEvents } from './constructs/mail-events';
import { MailQueues } from './constructs/mail-queues';
import { MailSender } from './constructs/mail-sender';
import { MAILER_TIMEOUT, Mailer } from './constructs/mailer';
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
  /** Verified addresses to send to while the account is in SES's sandbox (see MailSender). */
  sesSandboxRecipients?: string[];
  /** SES's maximum send rate (mails per second) to pace by; without it the mailer takes SES's (GetAccount). */
  sesMaxSendRate?: number;
}

/** How much the API lets through (README, "Capacity"). */
export interface CapacitySettings {
  /** The stage's steady requests per second; its burst is twice that. */
  apiRateLimit: number;
  /**
   * Executions reserved for the API function; none unless given. Lambda keeps 100 of the account's
   * concurrent executions unreserved, so on a new account's quota of 10 any reservation fails to deploy.
   */
  apiReservedConcurrency?: number;
}

export interface MandjeStackProps extends StackProps {
  /** The address the mails name for questions, and DMARC's reports go to (MANDJE_CONTACT_EMAIL, #contract/site-config). */
  contactEmail: string;
  /** The built page to deploy (dist/). */
  siteDir: string;
  /** The built functions to deploy (dist-functions/), one folder each. */
  functionsDir: string;
  /** A custom domain, with an ACM certificate for it in us-east-1 (as CloudFront requires). */
  domain?: { names: string[]; certificateArn: string };
  /** Confirmation by mail (double opt-in): the sender, its DNS and SES's sandbox and rate. */
  confirmation: ConfirmationSettings;
  /** The API's capacity; DEFAULT_API_RATE_LIMIT and no reservation unless given. */
  capacity?: CapacitySettings;
  /** Who hears the alarms, and after how many hours without a signup that is an alarm too (off if unset). */
  operations?: { alarmEmail?: string; signupSilenceHours?: number };
  /**
   * The per-client limit at the edge, from the us-east-1 companion stack (infra/edge-stack.ts): its web ACL
   * goes on the distribution. None without it (`-c waf=false`).
   */
  clientRateLimit?: ClientRateLimit;
}

/**
 * Production: the page and the API (signing up, confirming, leaving, one function) behind one CloudFront
 * distribution, the API answering only what came through it; the mail queues (fed by the table's stream
 * and by the operator's tool with an announcement's recipients) and the one mailer that sends from them
 * with SES at its pace, and a function that hears SES's bounces and complaints; and the operator's alarms
 * and dashboard.
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
    const logRetention = RetentionDays.THREE_MONTHS;
    const { confirmation, functionsDir } = props;
    const { apiRateLimit = DEFAULT_API_RATE_LIMIT, apiReservedConcurrency } = props.capacity ?? {};

    this.waitlist = new WaitlistApi(this, 'Waitlist', {
      functionsDir,
      // A launch-day spike is people, each sending one request: the rate steady, bursts of twice that.
      throttle: { rateLimit: apiRateLimit, burstLimit: 2 * apiRateLimit },
      ...(apiReservedConcurrency ? { reservedConcurrency: apiReservedConcurrency } : {}),
      logRetention,
    });
    this.originVerify = new OriginVerifySecret(this, 'OriginVerify');
    this.site = new StaticSite(this, 'Site', {
      siteDir: props.siteDir,
      api: this.waitlist.httpApi,
      originVerify: { header: this.originVerify.header, value: this.originVerify.value },
      ...(props.clientRateLimit ? { webAclArn: props.clientRateLimit.arn } : {}),
      ...(props.domain
        ? {
            domain: {
              names: props.domain.names,
              certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            },
          }
        : {}),
    });

    const { hostedZone, sesSandboxRecipients } = confirmation;
    this.mailSender = new MailSender(this, 'MailSender', {
      from: confirmation.mailFrom,
      ...(sesSandboxRecipients ? { sandboxRecipients: sesSandboxRecipients } : {}),
      dmarcReportsTo: props.contactEmail,
      ...(hostedZone
        ? {
            hostedZone: HostedZone.fromHostedZoneAttributes(this, 'HostedZone', {
              zoneName: hostedZone.name,
              hostedZoneId: hostedZone.id,
            }),
          }
        : {}),
    });
    this.mailQueues = new MailQueues(this, 'MailQueues', { consumerTimeout: MAILER_TIMEOUT });
    this.mailer = new Mailer(this, 'Mailer', {
      functionsDir,
      table: this.waitlist.table,
      sender: this.mailSender,
      queues: this.mailQueues,
      siteUrl: this.site.url,
      contactEmail: props.contactEmail,
      ...(confirmation.sesMaxSendRate !== undefined ? { maxSendRate: confirmation.sesMaxSendRate } : {}),
      logRetention,
    });
    this.mailEvents = new MailEvents(this, 'MailEvents', {
      functionsDir,
      table: this.waitlist.table,
      mailLimitTable: this.mailer.mailLimitTable,
      sender: this.mailSender,
      logRetention,
    });

    // The function that answers the public refuses a request that did not come through the distribution
    // (403 without the secret header) and a post another site's page made (its Origin is none of these).
    this.waitlist.handler.addEnvironment('ORIGIN_VERIFY_SECRET', this.originVerify.value);
    this.waitlist.handler.addEnvironment('SITE_ORIGINS', this.site.origins.join(','));

    const { alarmEmail, signupSilenceHours } = props.operations ?? {};
    this.operations = new Operations(this, 'Operations', {
      waitlist: this.waitlist,
      mailer: this.mailer,
      mailEvents: this.mailEvents,
      ...(props.clientRateLimit
        ? {
            clientRateLimit: {
              webAclName: props.clientRateLimit.name,
              ruleName: CLIENT_RATE_RULE,
              region: Stack.of(props.clientRateLimit).region,
            },
          }
        : {}),
      ...(alarmEmail ? { alarmEmail } : {}),
      ...(signupSilenceHours ? { signupSilence: Duration.hours(signupSilenceHours) } : {}),
    });

    new CfnOutput(this, 'SiteUrl', { value: this.site.url, description: 'The landing page' });
    new CfnOutput(this, 'WaitlistEndpoint', {
      value: `${this.site.url}${WAITLIST_PATH}`,
      description: 'The waitlist API, on the site’s own domain',
    });
    new CfnOutput(this, 'TableName', {
      value: this.waitlist.table.tableName,
      description: 'The waitlist table',
    });
    new CfnOutput(this, 'AnnouncementQueueUrl', {
      value: this.mailQueues.bulk.queueUrl,
      description:
        'The bulk mail queue: `npm run waitlist -- announce --send --table` puts an announcement’s recipients on it',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: this.operations.dashboardUrl,
      description: 'The operator’s dashboard: signups, refusals, faults, latency and the alarms',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.operations.topic.topicArn,
      description: 'Every alarm notifies this SNS topic; -c alarmEmail subscribes one address, add more here',
    });
    // Without a hosted zone to put them in, the DKIM, MAIL FROM and DMARC records are for the operator to add
    // to the DNS.
    const sender = this.mailSender;
    if (!sender.hasHostedZone) {
      for (const [index, { name, value }] of sender.dkimRecords.entries())
        new CfnOutput(this, `DkimRecord${index + 1}`, {
          value: `${name} CNAME ${value}`,
          description: `A DNS record for ${sender.domain}: SES signs and sends the confirmation mails once all three are found`,
        });
      const purposes = {
        MailFromMx: `SES takes bounces for ${sender.mailFromDomain}, the MAIL FROM domain, once it is found`,
        MailFromSpf: `SPF for ${sender.mailFromDomain}: SES may send as it, so SPF aligns with ${sender.domain}`,
        Dmarc: `DMARC for ${sender.domain}: receivers quarantine mail that fails it, and report to the contact address`,
      };
      for (const { id: recordId, name, type, value } of sender.authenticationRecords)
        new CfnOutput(this, `${recordId}Record`, {
          value: `${name} ${type} ${value}`,
          description: `A DNS record for ${sender.domain}. ${purposes[recordId]}`,
        });
    }
  }
}
