import { Duration, Stack } from 'aws-cdk-lib';
import { CfnRecordSet, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import {
  ConfigurationSet,
  DkimIdentity,
  EasyDkimSigningKeyLength,
  EmailIdentity,
  Identity,
  MailFromBehaviorOnMxFailure,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** A DNS record as a zone file writes it (TXT data in quotes). */
interface DnsRecord {
  id: 'MailFromMx' | 'MailFromSpf' | 'Dmarc';
  name: string;
  type: 'MX' | 'TXT';
  value: string;
}

export interface MailSenderProps {
  /** The address mails come from; its domain is the identity SES sends as. */
  from: string;
  /** Where the DKIM, MAIL FROM and DMARC records are created. */
  hostedZone?: IHostedZone;
  dmarcReportsTo: string;
  /** In SES's sandbox, sending to a verified address needs permission on its identity too. */
  sandboxRecipients?: string[];
}

/**
 * The sender's domain as an SES identity that signs with DKIM and sends from its own MAIL FROM subdomain, so
 * SPF and DKIM both align for DMARC, and a configuration set that keeps reputation figures and stops sending
 * to addresses that bounced or complained. Without a hosted zone the DNS records are for the operator to add.
 */
export class MailSender extends Construct {
  public readonly from: string;
  public readonly domain: string;
  public readonly hasHostedZone: boolean;
  public readonly identity: EmailIdentity;
  public readonly configurationSet: ConfigurationSet;
  /** What sending needs permission on, and nothing else. */
  public readonly sendingResources: string[];
  public readonly dkimRecords: { name: string; value: string }[];
  /** The envelope sender's domain, which SPF checks. */
  public readonly mailFromDomain: string;
  /** The MAIL FROM domain's MX and SPF records and the domain's DMARC record. */
  public readonly authenticationRecords: DnsRecord[];

  constructor(scope: Construct, id: string, props: MailSenderProps) {
    super(scope, id);
    this.from = props.from;
    this.domain = props.from.slice(props.from.lastIndexOf('@') + 1);
    this.hasHostedZone = props.hostedZone !== undefined;

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.mailFromDomain = `mail.${this.domain}`;
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: Identity.domain(this.domain),
      dkimSigning: true,
      dkimIdentity: DkimIdentity.easyDkim(EasyDkimSigningKeyLength.RSA_2048_BIT),
      configurationSet: this.configurationSet,
      mailFromDomain: this.mailFromDomain,
      // Until the MX record is found, SES's own MAIL FROM: DMARC still passes on the aligned DKIM signature.
      mailFromBehaviorOnMxFailure: MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
    });
    this.dkimRecords = this.identity.dkimRecords;

    this.authenticationRecords = [
      {
        id: 'MailFromMx',
        name: this.mailFromDomain,
        type: 'MX',
        value: `10 feedback-smtp.${Stack.of(this).region}.amazonses.com`,
      },
      {
        id: 'MailFromSpf',
        name: this.mailFromDomain,
        type: 'TXT',
        value: '"v=spf1 include:amazonses.com ~all"',
      },
      // Quarantine, not reject, while the reports show whether every sender of the domain aligns.
      {
        id: 'Dmarc',
        name: `_dmarc.${this.domain}`,
        type: 'TXT',
        value: `"v=DMARC1; p=quarantine; rua=mailto:${props.dmarcReportsTo}"`,
      },
    ];
    // Not Identity.publicHostedZone, which would verify the zone's own domain, of which the sender's may be
    // a subdomain. The names SES gives are complete, so no zone name is appended.
    const zone = props.hostedZone;
    const record = (recordId: string, name: string, type: string, value: string) =>
      zone &&
      new CfnRecordSet(this, recordId, {
        hostedZoneId: zone.hostedZoneId,
        name,
        type,
        resourceRecords: [value],
        ttl: String(Duration.minutes(30).toSeconds()),
      });
    for (const [index, { name, value }] of this.dkimRecords.entries())
      record(`DkimRecord${index + 1}`, name, 'CNAME', value);
    for (const { id: recordId, name, type, value } of this.authenticationRecords)
      record(`${recordId}Record`, name, type, value);

    this.sendingResources = [
      this.identity.emailIdentityArn,
      Stack.of(this).formatArn({
        service: 'ses',
        resource: 'configuration-set',
        resourceName: this.configurationSet.configurationSetName,
      }),
      ...(props.sandboxRecipients ?? []).map((address) =>
        Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: address }),
      ),
    ];
  }
}
