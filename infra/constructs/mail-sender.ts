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

/** A DNS record as a zone file writes it (TXT data in quotes), with an id that says what it is for. */
export interface DnsRecord {
  id: 'MailFromMx' | 'MailFromSpf' | 'Dmarc';
  name: string;
  type: 'MX' | 'TXT';
  value: string;
}

export interface MailSenderProps {
  /** The address mails come from, as `hallo@mandje.nl`; its domain is the identity SES sends as. */
  from: string;
  /** The Route 53 zone the domain's DNS lives in: the DKIM, MAIL FROM and DMARC records are created there. */
  hostedZone?: IHostedZone;
  /** Where receivers send their DMARC aggregate reports (the site's contact address). */
  dmarcReportsTo: string;
  /**
   * Verified addresses to send to while the account is in SES's sandbox. There SES also checks the
   * sender's permission on the recipient's identity, so sending to them needs their identities too.
   */
  sandboxRecipients?: string[];
}

/**
 * Sending mail with Amazon SES v2: the sender's domain as an identity that signs with DKIM (Easy DKIM) and
 * sends from its own MAIL FROM subdomain, so SPF and DKIM both align with the From domain for DMARC; and a
 * configuration set that keeps reputation figures and stops sending to addresses that bounced or
 * complained. Without a hosted zone, `dkimRecords` and `authenticationRecords` are the records to add to
 * the domain's DNS; SES sends once the DKIM records are there.
 */
export class MailSender extends Construct {
  public readonly from: string;
  /** The sender's domain: the identity's name. */
  public readonly domain: string;
  /** Whether the DKIM records were created in a Route 53 zone; if not, they are for the operator to add. */
  public readonly hasHostedZone: boolean;
  public readonly identity: EmailIdentity;
  public readonly configurationSet: ConfigurationSet;
  /**
   * What sending needs permission on: the identity and the configuration set, and in SES's sandbox the
   * recipients' identities given; nothing else.
   */
  public readonly sendingResources: string[];
  /** The DKIM CNAME records; created in the hosted zone when one is given. */
  public readonly dkimRecords: { name: string; value: string }[];
  /** The MAIL FROM domain (the envelope sender, which SPF checks): `mail.` and the sender's domain. */
  public readonly mailFromDomain: string;
  /**
   * The MAIL FROM domain's MX and SPF records and the domain's DMARC record, as a zone file writes them;
   * created in the hosted zone when one is given.
   */
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
      // Until the MX record is found, mail goes out with SES's own MAIL FROM: DMARC still passes on the
      // aligned DKIM signature, and a missing record never stops the confirmation mails.
      mailFromBehaviorOnMxFailure: MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
    });
    this.dkimRecords = this.identity.dkimRecords;

    // Written out rather than by Identity.publicHostedZone, which would verify the zone's own domain: the
    // sender's may be a subdomain of it. The names SES gives are complete, so no zone name is appended.
    const zone = props.hostedZone;
    if (zone)
      for (const [index, { name, value }] of this.dkimRecords.entries())
        new CfnRecordSet(this, `DkimRecord${index + 1}`, {
          hostedZoneId: zone.hostedZoneId,
          name,
          type: 'CNAME',
          resourceRecords: [value],
          ttl: String(Duration.minutes(30).toSeconds()),
        });

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
    if (zone)
      for (const { id: recordId, name, type, value } of this.authenticationRecords)
        new CfnRecordSet(this, `${recordId}Record`, {
          hostedZoneId: zone.hostedZoneId,
          name,
          type,
          resourceRecords: [value],
          ttl: String(Duration.minutes(30).toSeconds()),
        });

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
