import type { App } from 'aws-cdk-lib';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { readSiteConfig, type SiteEnvironment } from '#contract/site-config';
import type { CapacitySettings, ConfirmationSettings, MandjeStackProps } from './mandje-stack';
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

/** SES's maximum send rate (mails per second) to pace by, when the operator knows it: a positive number. */
function sesMaxSendRateFrom(app: App): number | undefined {
  const given = contextString(app, 'sesMaxSendRate');
  if (given === undefined) return undefined;
  const rate = Number(given);
  if (!(Number.isFinite(rate) && rate > 0))
    throw new DeploySettingError(
      `-c sesMaxSendRate is the account's SES maximum send rate in mails per second, such as 14, not "${given}".`,
    );
  return rate;
}

/**
 * The sender is one fact, the site config's (#contract/site-config: MANDJE_MAIL_FROM, else the contact
 * address), which the runner reads too; `-c mailFrom` is the deploy's way to give it (the workflow). Given
 * both ways, they must agree. Given neither, the site config's holds, so the app synthesizes with no context
 * at all (as `cdk bootstrap` runs it); SES sends once its domain's DKIM records are found.
 */
function senderFrom(app: App, env: SiteEnvironment): string {
  const given = contextString(app, 'mailFrom');
  const fromEnvironment = env.MANDJE_MAIL_FROM?.trim() || undefined;
  if (given && fromEnvironment && given !== fromEnvironment)
    throw new DeploySettingError(
      `-c mailFrom=${given} and MANDJE_MAIL_FROM=${fromEnvironment} name two senders: give one, or the same.`,
    );
  return given ?? readSiteConfig(env).mailFrom;
}

function confirmationFrom(app: App, env: SiteEnvironment): ConfirmationSettings {
  const sesSandboxRecipients = sandboxRecipientsFrom(app);
  const sesMaxSendRate = sesMaxSendRateFrom(app);
  const mailFrom = senderFrom(app, env);
  if (!PLAIN_ADDRESS.test(mailFrom))
    throw new DeploySettingError(
      `-c mailFrom is a plain address such as hallo@mandje.nl, not "${mailFrom}".`,
    );

  const sending = {
    mailFrom,
    ...(sesSandboxRecipients ? { sesSandboxRecipients } : {}),
    ...(sesMaxSendRate !== undefined ? { sesMaxSendRate } : {}),
  };
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

/**
 * What one waitlist request keeps a function busy for, generously: a warm one takes 20 to 50 ms (a PutItem
 * and the handler); the rest is room for the slow tail and for cold starts while a spike ramps up.
 */
export const WAITLIST_REQUEST_SECONDS = 0.1;

/** Executions a rate of requests keeps busy: rate × duration (Little's law), rounded up. */
export const concurrencyNeededFor = (ratePerSecond: number) =>
  Math.ceil(ratePerSecond * WAITLIST_REQUEST_SECONDS);

/** A whole number of at least 1, or undefined when not given. */
function positiveInteger(name: string, value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= 1))
    throw new DeploySettingError(`-c ${name} is ${what}, a whole number of at least 1, not "${value}".`);
  return number;
}

/**
 * How much the API takes: the stage's global rate (burst twice that), and optionally executions reserved for
 * the API function. A reservation below what the rate keeps busy would turn people away with errors
 * before the throttle's 429 does, so it is refused. Lambda refuses a reservation that leaves fewer than 100
 * of the account's concurrent executions unreserved: on a new account's 10, any reservation fails to
 * deploy, so give one only once the quota is raised.
 */
function capacityFrom(app: App): CapacitySettings {
  const apiRateLimit =
    positiveInteger('apiRateLimit', contextString(app, 'apiRateLimit'), 'the API’s requests per second') ??
    DEFAULT_API_RATE_LIMIT;
  const apiReservedConcurrency = positiveInteger(
    'apiReservedConcurrency',
    contextString(app, 'apiReservedConcurrency'),
    'the executions reserved for the API function',
  );
  const needed = concurrencyNeededFor(apiRateLimit);
  if (apiReservedConcurrency !== undefined && apiReservedConcurrency < needed)
    throw new DeploySettingError(
      `-c apiReservedConcurrency=${apiReservedConcurrency} is below what -c apiRateLimit=${apiRateLimit} keeps busy (${needed}, at ${WAITLIST_REQUEST_SECONDS * 1_000} ms a request): raise it, or lower the rate.`,
    );
  return { apiRateLimit, ...(apiReservedConcurrency ? { apiReservedConcurrency } : {}) };
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
 * - `mailFrom=hallo@mandje.nl`: the sender of confirmation mails (or MANDJE_MAIL_FROM in the environment, the
 *   same fact; without either, the site config's sender: see senderFrom);
 * - `hostedZoneName=mandje.nl` with `hostedZoneId=Z…`: the Route 53 zone the DKIM records go in;
 * - `sesSandboxRecipients=ann@example.nl,bob@example.nl`: while the account is in SES's sandbox, the verified
 *   addresses to try the mail with;
 * - `alarmEmail=ops@mandje.nl`: the alarms are mailed there (SNS asks that mailbox to confirm first);
 * - `signupSilenceHours=6`: an alarm when no one has joined for that many hours (off unless given);
 * - `waf=false`: no per-client limit at the edge, so no AWS WAF web ACL and no us-east-1 companion stack
 *   (the API stage's throttle stays);
 * - `apiRateLimit=1000`: the API stage's requests per second (bursts of twice that), DEFAULT_API_RATE_LIMIT
 *   unless given;
 * - `apiReservedConcurrency=100`: executions reserved for the API function (none unless given: a
 *   reservation takes from the account's unreserved pool, of which Lambda keeps 100 free, so on a new
 *   account's quota of 10 concurrent executions any reservation fails to deploy);
 * - `sesMaxSendRate=14`: the mailer's pace in mails per second, instead of asking SES's GetAccount.
 */
export function deploySettings(
  app: App,
  env: SiteEnvironment = {},
): Pick<MandjeStacksProps, 'domain' | 'confirmation' | 'operations' | 'waf' | 'capacity'> {
  const domainNames = contextString(app, 'domainNames');
  const certificateArn = contextString(app, 'certificateArn');
  if (!domainNames !== !certificateArn)
    throw new DeploySettingError('-c domainNames and -c certificateArn go together: give both, or neither.');
  return {
    confirmation: confirmationFrom(app, env),
    operations: operationsFrom(app),
    waf: wafFrom(app),
    capacity: capacityFrom(app),
    ...(domainNames && certificateArn
      ? { domain: { names: domainNames.split(',').map((name) => name.trim()), certificateArn } }
      : {}),
  };
}
