import { Duration, Stack } from 'aws-cdk-lib';
import { CfnRecordSet } from 'aws-cdk-lib/aws-route53';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface MailSettings {
  /** A plain address; SES sends as its domain. */
  mailFrom: string;
  /** The Route 53 public hosted zone holding that domain: its DKIM, MAIL FROM and DMARC records go there. */
  hostedZone?: { name: string; id: string };
  /** Verified addresses to send to while the account is in SES's sandbox. */
  sesSandboxRecipients?: string[];
  sesMaxSendRate?: number;
}

/**
 * The sender's domain as an SES identity that signs with DKIM and sends from its own MAIL FROM subdomain (SPF
 * and DKIM both align for DMARC), and a configuration set that stops sending to addresses that bounced.
 */
export class MailSender extends Construct {
  public readonly from: string;
  public readonly configurationSet: ses.ConfigurationSet;
  /** What sending needs permission on, and nothing else. */
  public readonly sendingResources: string[];
  /** The DKIM, MAIL FROM (MX, SPF) and DMARC records (TXT data in quotes). */
  public readonly dnsRecords: Record<'id' | 'name' | 'type' | 'value' | 'description', string>[];

  constructor(scope: Construct, id: string, props: MailSettings & { dmarcTo: string }) {
    super(scope, id);
    this.from = props.mailFrom;
    const domain = props.mailFrom.slice(props.mailFrom.lastIndexOf('@') + 1);
    const stack = Stack.of(this);

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    // The envelope sender's domain, which SPF checks.
    const mailFromDomain = `mail.${domain}`;
    const identity = new ses.EmailIdentity(this, 'Identity', {
      identity: ses.Identity.domain(domain),
      dkimSigning: true,
      dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
      configurationSet: this.configurationSet,
      mailFromDomain,
      // Until the MX record is found, SES's own MAIL FROM: DMARC still passes on the aligned DKIM signature.
      mailFromBehaviorOnMxFailure: ses.MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
    });

    const record = `A DNS record for ${domain}.`;
    this.dnsRecords = [
      ...identity.dkimRecords.map(({ name, value }, index) => ({
        id: `DkimRecord${index + 1}`,
        name,
        type: 'CNAME',
        value,
        description: `A DNS record for ${domain}: SES signs and sends the confirmation mails once all three are found`,
      })),
      {
        id: 'MailFromMxRecord',
        name: mailFromDomain,
        type: 'MX',
        value: `10 feedback-smtp.${stack.region}.amazonses.com`,
        description: `${record} SES takes bounces for ${mailFromDomain}, the MAIL FROM domain, once it is found`,
      },
      {
        id: 'MailFromSpfRecord',
        name: mailFromDomain,
        type: 'TXT',
        value: '"v=spf1 include:amazonses.com ~all"',
        description: `${record} SPF for ${mailFromDomain}: SES may send as it, so SPF aligns with ${domain}`,
      },
      // Quarantine, not reject, while the reports show whether every sender of the domain aligns.
      {
        id: 'DmarcRecord',
        name: `_dmarc.${domain}`,
        type: 'TXT',
        value: `"v=DMARC1; p=quarantine; rua=mailto:${props.dmarcTo}"`,
        description: `${record} DMARC for ${domain}: receivers quarantine mail that fails it, and report to the contact address`,
      },
    ];
    // Not Identity.publicHostedZone, which would verify the zone's own domain, of which the sender's may be a part.
    if (props.hostedZone)
      for (const { id: recordId, name, type, value } of this.dnsRecords)
        new CfnRecordSet(this, recordId, {
          hostedZoneId: props.hostedZone.id,
          name,
          type,
          resourceRecords: [value],
          ttl: String(Duration.minutes(30).toSeconds()),
        });

    const sesArn = (resource: string, resourceName: string) =>
      stack.formatArn({ service: 'ses', resource, resourceName });
    this.sendingResources = [
      identity.emailIdentityArn,
      sesArn('configuration-set', this.configurationSet.configurationSetName),
      // In SES's sandbox, sending to a verified address needs permission on its identity too.
      ...(props.sesSandboxRecipients ?? []).map((address) => sesArn('identity', address)),
    ];
  }
}
