import type { App } from 'aws-cdk-lib';
import type { ConfirmationSettings, MandjeStackProps } from './mandje-stack';
import type { MandjeStacksProps } from './mandje-stacks';

/** A deploy setting that is missing, malformed or at odds with another: the synth stops with its message. */
export class DeploySettingError extends Error {
  override name = 'DeploySettingError';
}

/** A plain address, no display name: its domain is what SES sends as. */
const PLAIN_ADDRESS = /^[^\s@<>"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
const withoutFinalDot = (name: string) => name.toLowerCase().replace(/\.$/, '');

function contextString(app: App, name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined || value === '' ? undefined : String(value).trim();
}

/** The verified addresses SES's sandbox lets the mailer send to: plain addresses, comma-separated. */
function sandboxRecipientsFrom(app: App): string[] | undefined {
  const list = contextString(app, 'sesSandboxRecipients');
  if (!list) return undefined;
  const addresses = list.split(',').map((address) => address.trim());
  const malformed = addresses.find((address) => !PLAIN_ADDRESS.test(address));
  if (malformed !== undefined)
    throw new DeploySettingError(
      `-c sesSandboxRecipients is plain addresses separated by commas, such as ann@example.nl,bob@example.nl; "${malformed}" is not one.`,
    );
  return [...new Set(addresses)];
}

function confirmationFrom(app: App): ConfirmationSettings | false {
  const confirmSignups = contextString(app, 'confirmSignups') ?? 'true';
  const sesSandboxRecipients = sandboxRecipientsFrom(app);
  if (confirmSignups === 'false') {
    if (sesSandboxRecipients)
      throw new DeploySettingError(
        '-c sesSandboxRecipients is for confirmation mails, which -c confirmSignups=false turns off: drop one of the two.',
      );
    return false;
  }
  if (confirmSignups !== 'true')
    throw new DeploySettingError(`-c confirmSignups is true or false, not "${confirmSignups}".`);

  const mailFrom = contextString(app, 'mailFrom');
  if (!mailFrom)
    throw new DeploySettingError(
      'Confirmation mails need a sender: deploy with -c mailFrom=hallo@your-domain, or with -c confirmSignups=false to store signups confirmed without a mail.',
    );
  if (!PLAIN_ADDRESS.test(mailFrom))
    throw new DeploySettingError(
      `-c mailFrom is a plain address such as hallo@mandje.nl, not "${mailFrom}".`,
    );

  const sending = { mailFrom, ...(sesSandboxRecipients ? { sesSandboxRecipients } : {}) };
  const zoneName = contextString(app, 'hostedZoneName');
  const zoneId = contextString(app, 'hostedZoneId');
  if (!zoneName && !zoneId) return sending;
  if (!zoneName || !zoneId)
    throw new DeploySettingError('-c hostedZoneName and -c hostedZoneId go together: give both, or neither.');
  const zone = withoutFinalDot(zoneName);
  const domain = domainOf(mailFrom);
  if (domain !== zone && !domain.endsWith(`.${zone}`))
    throw new DeploySettingError(
      `The hosted zone ${zone} does not hold ${domain}, the domain of -c mailFrom: its DKIM records cannot go there.`,
    );
  return { ...sending, hostedZone: { name: zone, id: zoneId } };
}

/** Who hears the alarms, and after how long without a signup that is one too. */
function operationsFrom(app: App): NonNullable<MandjeStackProps['operations']> {
  const alarmEmail = contextString(app, 'alarmEmail');
  if (alarmEmail !== undefined && !PLAIN_ADDRESS.test(alarmEmail))
    throw new DeploySettingError(
      `-c alarmEmail is a plain address such as ops@mandje.nl, not "${alarmEmail}".`,
    );
  const silence = contextString(app, 'signupSilenceHours');
  const hours = silence === undefined ? undefined : Number(silence);
  if (hours !== undefined && !(Number.isInteger(hours) && hours >= 1 && hours <= 24))
    throw new DeploySettingError(
      `-c signupSilenceHours is a whole number of hours from 1 to 24 (CloudWatch's longest period), not "${silence}".`,
    );
  return {
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(hours ? { signupSilenceHours: hours } : {}),
  };
}

/** Whether the edge limits each client's posts with AWS WAF: on unless `-c waf=false`. */
function wafFrom(app: App): boolean {
  const waf = contextString(app, 'waf') ?? 'true';
  if (waf !== 'true' && waf !== 'false')
    throw new DeploySettingError(`-c waf is true or false, not "${waf}".`);
  return waf === 'true';
}

/**
 * The choices made at deploy time, from the CDK context (`-c name=value`):
 * - `domainNames=mandje.nl,www.mandje.nl` with `certificateArn=arn:aws:acm:us-east-1:…`: a custom domain;
 * - `mailFrom=hallo@mandje.nl`: the sender of confirmation mails, required while confirmation is on;
 * - `hostedZoneName=mandje.nl` with `hostedZoneId=Z…`: the Route 53 zone the DKIM records go in;
 * - `sesSandboxRecipients=ann@example.nl,bob@example.nl`: while the account is in SES's sandbox, the verified
 *   addresses to try the mail with;
 * - `confirmSignups=false`: signups are stored confirmed, and no mail is sent;
 * - `alarmEmail=ops@mandje.nl`: the alarms are mailed there (SNS asks that mailbox to confirm first);
 * - `signupSilenceHours=6`: an alarm when no one has joined for that many hours (off unless given);
 * - `waf=false`: no per-client limit at the edge, so no AWS WAF web ACL and no us-east-1 companion stack
 *   (the API stage's throttle stays).
 */
export function deploySettings(
  app: App,
): Pick<MandjeStacksProps, 'domain' | 'confirmation' | 'operations' | 'waf'> {
  const domainNames = contextString(app, 'domainNames');
  const certificateArn = contextString(app, 'certificateArn');
  if (!domainNames !== !certificateArn)
    throw new DeploySettingError('-c domainNames and -c certificateArn go together: give both, or neither.');
  return {
    confirmation: confirmationFrom(app),
    operations: operationsFrom(app),
    waf: wafFrom(app),
    ...(domainNames && certificateArn
      ? { domain: { names: domainNames.split(',').map((name) => name.trim()), certificateArn } }
      : {}),
  };
}
