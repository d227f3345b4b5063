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
const PLAIN_ADDRESS = 'a plain address such as';

/** The choices made at deploy time, from the CDK context (`-c name=value`; docs/deploying.md lists them). */
export function deploySettings(app: App, env: SiteEnvironment = {}) {
  // A setting given empty (as the deploy workflow passes an unset one) is not given.
  const setting = (name: string) => {
    const value: unknown = app.node.tryGetContext(name);
    return value === undefined || value === '' ? undefined : String(value).trim();
  };
  const refuse = (message: string) => {
    throw new DeploySettingError(message);
  };
  function checked<T>(name: string, what: string, valid: (value: T) => boolean, parse: (given: string) => T) {
    const given = setting(name);
    const value = given === undefined ? undefined : parse(given);
    if (value !== undefined && !valid(value)) refuse(`-c ${name} is ${what}, not "${given}".`);
    return value;
  }
  const numeric = (name: string, what: string, valid: (value: number) => boolean) =>
    checked(name, what, valid, Number);
  const together = (one: string, other: string) => {
    const [a, b] = [setting(one), setting(other)];
    if (!a !== !b) refuse(`-c ${one} and -c ${other} go together: give both, or neither.`);
    return a && b ? ([a, b] as const) : undefined;
  };

  const domain = together('domainNames', 'certificateArn');
  const addresses = setting('sesSandboxRecipients')
    ?.split(',')
    .map((address) => address.trim());
  const malformed = addresses?.find((address) => !isPlainAddress(address));
  if (malformed !== undefined)
    refuse(
      `-c sesSandboxRecipients is plain addresses separated by commas, such as ann@example.nl,bob@example.nl; "${malformed}" is not one.`,
    );
  // The sender is the site config's fact (MANDJE_MAIL_FROM, else the contact address); `-c mailFrom` is the
  // deploy workflow's way to give it, and given both ways they must agree.
  const givenFrom = setting('mailFrom');
  const fromEnvironment = env.MANDJE_MAIL_FROM?.trim() || undefined;
  if (givenFrom && fromEnvironment && givenFrom !== fromEnvironment)
    refuse(
      `-c mailFrom=${givenFrom} and MANDJE_MAIL_FROM=${fromEnvironment} name two senders: give one, or the same.`,
    );
  const mailFrom = givenFrom ?? readSiteConfig(env).mailFrom;
  if (!isPlainAddress(mailFrom))
    refuse(`-c mailFrom is ${PLAIN_ADDRESS} hallo@mandje.nl, not "${mailFrom}".`);
  const zone = together('hostedZoneName', 'hostedZoneId');
  const zoneName = zone?.[0].toLowerCase().replace(/\.$/, '');
  const mailDomain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1).toLowerCase();
  if (zoneName !== undefined && mailDomain !== zoneName && !mailDomain.endsWith(`.${zoneName}`))
    refuse(
      `The hosted zone ${zoneName} does not hold ${mailDomain}, the domain of -c mailFrom: its DKIM records cannot go there.`,
    );
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
    refuse(
      `-c apiReservedConcurrency=${apiReservedConcurrency} is below what -c apiRateLimit=${apiRateLimit} keeps busy (${needed}, at ${WAITLIST_REQUEST_SECONDS * 1_000} ms a request): raise it, or lower the rate.`,
    );
  return {
    confirmation: {
      mailFrom,
      sesSandboxRecipients: addresses && [...new Set(addresses)],
      sesMaxSendRate: numeric(
        'sesMaxSendRate',
        "the account's SES maximum send rate in mails per second, such as 14",
        (rate) => Number.isFinite(rate) && rate > 0,
      ),
      hostedZone: zone && zoneName !== undefined ? { name: zoneName, id: zone[1] } : undefined,
    },
    operations: {
      alarmEmail: checked('alarmEmail', `${PLAIN_ADDRESS} ops@mandje.nl`, isPlainAddress, String),
      signupSilenceHours: numeric(
        'signupSilenceHours',
        "a whole number of hours from 1 to 24 (CloudWatch's longest period)",
        (hours) => isWholeNumber(hours) && hours <= 24,
      ),
    },
    waf:
      checked('waf', 'true or false', (given) => given === 'true' || given === 'false', String) !== 'false',
    capacity: { apiRateLimit, apiReservedConcurrency },
    domain: domain && { names: domain[0].split(',').map((name) => name.trim()), certificateArn: domain[1] },
  };
}
