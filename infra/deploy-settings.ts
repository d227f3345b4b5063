import type { App } from 'aws-cdk-lib';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { readSiteConfig, type SiteEnvironment } from '#contract/site-config';
import type { ConfirmationSettings } from './mandje-stack';
import type { MandjeStacksProps } from './mandje-stacks';

/** A deploy setting that is missing, malformed or at odds with another: the synth stops with its message. */
export class DeploySettingError extends Error {
  override name = 'DeploySettingError';
}

/** A plain address, no display name: its domain is what SES sends as. */
const PLAIN_ADDRESS = /^[^\s@<>"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** A setting given empty (as the deploy workflow passes an unset one) is not given. */
function contextString(app: App, name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined || value === '' ? undefined : String(value).trim();
}

/** A given setting, parsed; one `valid` refuses stops the synth with `refusal`. */
function checked<T>(
  given: string | undefined,
  parse: (given: string) => T,
  valid: (value: T) => boolean,
  refusal: (given: string) => string,
): T | undefined {
  if (given === undefined) return undefined;
  const value = parse(given);
  if (!valid(value)) throw new DeploySettingError(refusal(given));
  return value;
}

const isPlainAddress = (address: string) => PLAIN_ADDRESS.test(address);
const isWholeNumber = (number: number) => Number.isInteger(number) && number >= 1;

/**
 * What one waitlist request keeps a function busy for, generously: a warm one takes 20 to 50 ms; the rest is
 * room for the slow tail and for cold starts while a spike ramps up.
 */
const WAITLIST_REQUEST_SECONDS = 0.1;

/** Executions a rate of requests keeps busy: rate × duration (Little's law), rounded up. */
export const concurrencyNeededFor = (ratePerSecond: number) =>
  Math.ceil(ratePerSecond * WAITLIST_REQUEST_SECONDS);

function confirmationFrom(app: App, env: SiteEnvironment): ConfirmationSettings {
  const list = contextString(app, 'sesSandboxRecipients');
  const addresses = list ? list.split(',').map((address) => address.trim()) : undefined;
  const malformed = addresses?.find((address) => !isPlainAddress(address));
  if (malformed !== undefined)
    throw new DeploySettingError(
      `-c sesSandboxRecipients is plain addresses separated by commas, such as ann@example.nl,bob@example.nl; "${malformed}" is not one.`,
    );
  const sesMaxSendRate = checked(
    contextString(app, 'sesMaxSendRate'),
    Number,
    (rate) => Number.isFinite(rate) && rate > 0,
    (given) =>
      `-c sesMaxSendRate is the account's SES maximum send rate in mails per second, such as 14, not "${given}".`,
  );
  // The sender is the site config's fact (MANDJE_MAIL_FROM, else the contact address); `-c mailFrom` is the
  // deploy workflow's way to give it, and given both ways they must agree.
  const given = contextString(app, 'mailFrom');
  const fromEnvironment = env.MANDJE_MAIL_FROM?.trim() || undefined;
  if (given && fromEnvironment && given !== fromEnvironment)
    throw new DeploySettingError(
      `-c mailFrom=${given} and MANDJE_MAIL_FROM=${fromEnvironment} name two senders: give one, or the same.`,
    );
  const mailFrom = given ?? readSiteConfig(env).mailFrom;
  if (!isPlainAddress(mailFrom))
    throw new DeploySettingError(
      `-c mailFrom is a plain address such as hallo@mandje.nl, not "${mailFrom}".`,
    );

  const sending = {
    mailFrom,
    ...(addresses ? { sesSandboxRecipients: [...new Set(addresses)] } : {}),
    ...(sesMaxSendRate !== undefined ? { sesMaxSendRate } : {}),
  };
  const zoneName = contextString(app, 'hostedZoneName');
  const zoneId = contextString(app, 'hostedZoneId');
  if (!zoneName && !zoneId) return sending;
  if (!zoneName || !zoneId)
    throw new DeploySettingError('-c hostedZoneName and -c hostedZoneId go together: give both, or neither.');
  const zone = zoneName.toLowerCase().replace(/\.$/, '');
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1).toLowerCase();
  if (domain !== zone && !domain.endsWith(`.${zone}`))
    throw new DeploySettingError(
      `The hosted zone ${zone} does not hold ${domain}, the domain of -c mailFrom: its DKIM records cannot go there.`,
    );
  return { ...sending, hostedZone: { name: zone, id: zoneId } };
}

/** The choices made at deploy time, from the CDK context (`-c name=value`; docs/deploying.md lists them). */
export function deploySettings(
  app: App,
  env: SiteEnvironment = {},
): Pick<MandjeStacksProps, 'domain' | 'confirmation' | 'operations' | 'waf' | 'capacity'> {
  const domainNames = contextString(app, 'domainNames');
  const certificateArn = contextString(app, 'certificateArn');
  if (!domainNames !== !certificateArn)
    throw new DeploySettingError('-c domainNames and -c certificateArn go together: give both, or neither.');
  const confirmation = confirmationFrom(app, env);
  const alarmEmail = checked(
    contextString(app, 'alarmEmail'),
    String,
    isPlainAddress,
    (given) => `-c alarmEmail is a plain address such as ops@mandje.nl, not "${given}".`,
  );
  const signupSilenceHours = checked(
    contextString(app, 'signupSilenceHours'),
    Number,
    (hours) => Number.isInteger(hours) && hours >= 1 && hours <= 24,
    (given) =>
      `-c signupSilenceHours is a whole number of hours from 1 to 24 (CloudWatch's longest period), not "${given}".`,
  );
  const waf = contextString(app, 'waf') ?? 'true';
  if (waf !== 'true' && waf !== 'false')
    throw new DeploySettingError(`-c waf is true or false, not "${waf}".`);
  const apiRateLimit =
    checked(
      contextString(app, 'apiRateLimit'),
      Number,
      isWholeNumber,
      (given) =>
        `-c apiRateLimit is the API’s requests per second, a whole number of at least 1, not "${given}".`,
    ) ?? DEFAULT_API_RATE_LIMIT;
  const apiReservedConcurrency = checked(
    contextString(app, 'apiReservedConcurrency'),
    Number,
    isWholeNumber,
    (given) =>
      `-c apiReservedConcurrency is the executions reserved for the API function, a whole number of at least 1, not "${given}".`,
  );
  // A reservation below what the rate keeps busy would turn people away with errors before the throttle's
  // 429 does.
  const needed = concurrencyNeededFor(apiRateLimit);
  if (apiReservedConcurrency !== undefined && apiReservedConcurrency < needed)
    throw new DeploySettingError(
      `-c apiReservedConcurrency=${apiReservedConcurrency} is below what -c apiRateLimit=${apiRateLimit} keeps busy (${needed}, at ${WAITLIST_REQUEST_SECONDS * 1_000} ms a request): raise it, or lower the rate.`,
    );
  return {
    confirmation,
    operations: {
      ...(alarmEmail ? { alarmEmail } : {}),
      ...(signupSilenceHours ? { signupSilenceHours } : {}),
    },
    waf: waf === 'true',
    capacity: { apiRateLimit, ...(apiReservedConcurrency ? { apiReservedConcurrency } : {}) },
    ...(domainNames && certificateArn
      ? { domain: { names: domainNames.split(',').map((name) => name.trim()), certificateArn } }
      : {}),
  };
}
