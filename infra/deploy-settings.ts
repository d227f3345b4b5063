import type { App } from 'aws-cdk-lib';
import { apiConcurrencyAt, DEFAULT_API_RATE_LIMIT, WAITLIST_REQUEST_SECONDS } from '#contract/mail-pace';
import { readSiteConfig, type SiteEnvironment } from '#contract/site-config';

/** A deploy setting that is missing, malformed or at odds with another: the synth stops with its message. */
export class DeploySettingError extends Error {
  override name = 'DeploySettingError';
}

/** A plain address, no display name: its domain is what SES sends as. */
const isPlainAddress = (address: string) => /^[^\s@<>"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(address);
const isWholeNumber = (number: number) => Number.isInteger(number) && number >= 1;

/** The choices made at deploy time, from the CDK context (`-c name=value`; docs/deploying.md lists them). */
export function deploySettings(app: App, env: SiteEnvironment = {}) {
  // A setting given empty (as the deploy workflow passes an unset one) is not given.
  const setting = (name: string) => {
    const value: unknown = app.node.tryGetContext(name);
    return value === undefined || value === '' ? undefined : String(value).trim();
  };
  function checked<T>(name: string, what: string, valid: (value: T) => boolean, parse: (given: string) => T) {
    const given = setting(name);
    if (given === undefined) return undefined;
    const value = parse(given);
    if (!valid(value)) throw new DeploySettingError(`-c ${name} is ${what}, not "${given}".`);
    return value;
  }
  const numeric = (name: string, what: string, valid: (value: number) => boolean) =>
    checked(name, what, valid, Number);

  const domainNames = setting('domainNames');
  const certificateArn = setting('certificateArn');
  if (!domainNames !== !certificateArn)
    throw new DeploySettingError('-c domainNames and -c certificateArn go together: give both, or neither.');

  const addresses = setting('sesSandboxRecipients')
    ?.split(',')
    .map((address) => address.trim());
  const malformed = addresses?.find((address) => !isPlainAddress(address));
  if (malformed !== undefined)
    throw new DeploySettingError(
      `-c sesSandboxRecipients is plain addresses separated by commas, such as ann@example.nl,bob@example.nl; "${malformed}" is not one.`,
    );
  const sesMaxSendRate = numeric(
    'sesMaxSendRate',
    "the account's SES maximum send rate in mails per second, such as 14",
    (rate) => Number.isFinite(rate) && rate > 0,
  );
  // The sender is the site config's fact (MANDJE_MAIL_FROM, else the contact address); `-c mailFrom` is the
  // deploy workflow's way to give it, and given both ways they must agree.
  const givenFrom = setting('mailFrom');
  const fromEnvironment = env.MANDJE_MAIL_FROM?.trim() || undefined;
  if (givenFrom && fromEnvironment && givenFrom !== fromEnvironment)
    throw new DeploySettingError(
      `-c mailFrom=${givenFrom} and MANDJE_MAIL_FROM=${fromEnvironment} name two senders: give one, or the same.`,
    );
  const mailFrom = givenFrom ?? readSiteConfig(env).mailFrom;
  if (!isPlainAddress(mailFrom))
    throw new DeploySettingError(
      `-c mailFrom is a plain address such as hallo@mandje.nl, not "${mailFrom}".`,
    );
  const zoneName = setting('hostedZoneName');
  const zoneId = setting('hostedZoneId');
  if (!zoneName !== !zoneId)
    throw new DeploySettingError('-c hostedZoneName and -c hostedZoneId go together: give both, or neither.');
  const zone = zoneName?.toLowerCase().replace(/\.$/, '');
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1).toLowerCase();
  if (zone !== undefined && domain !== zone && !domain.endsWith(`.${zone}`))
    throw new DeploySettingError(
      `The hosted zone ${zone} does not hold ${domain}, the domain of -c mailFrom: its DKIM records cannot go there.`,
    );
  const alarmEmail = checked('alarmEmail', 'a plain address such as ops@mandje.nl', isPlainAddress, String);
  const signupSilenceHours = numeric(
    'signupSilenceHours',
    "a whole number of hours from 1 to 24 (CloudWatch's longest period)",
    (hours) => isWholeNumber(hours) && hours <= 24,
  );
  const waf = checked('waf', 'true or false', (given) => given === 'true' || given === 'false', String);
  const apiRateLimit =
    numeric('apiRateLimit', 'the API’s requests per second, a whole number of at least 1', isWholeNumber) ??
    DEFAULT_API_RATE_LIMIT;
  const apiReservedConcurrency = numeric(
    'apiReservedConcurrency',
    'the executions reserved for the API function, a whole number of at least 1',
    isWholeNumber,
  );
  // A reservation below what the rate keeps busy would turn people away with errors before the throttle's 429 does.
  const needed = apiConcurrencyAt(apiRateLimit);
  if (apiReservedConcurrency !== undefined && apiReservedConcurrency < needed)
    throw new DeploySettingError(
      `-c apiReservedConcurrency=${apiReservedConcurrency} is below what -c apiRateLimit=${apiRateLimit} keeps busy (${needed}, at ${WAITLIST_REQUEST_SECONDS * 1_000} ms a request): raise it, or lower the rate.`,
    );
  return {
    confirmation: {
      mailFrom,
      sesSandboxRecipients: addresses && [...new Set(addresses)],
      sesMaxSendRate,
      hostedZone: zone !== undefined && zoneId ? { name: zone, id: zoneId } : undefined,
    },
    operations: { alarmEmail, signupSilenceHours },
    waf: waf !== 'false',
    capacity: { apiRateLimit, apiReservedConcurrency },
    domain:
      domainNames && certificateArn
        ? { names: domainNames.split(',').map((name) => name.trim()), certificateArn }
        : undefined,
  };
}
