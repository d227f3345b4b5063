// The site's facts that are not copy, from the MANDJE_* variables (docs/configuration.md); empty is unset.
import { z } from 'zod';
import { BRAND_NAME } from './brand';

const setting = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim() || undefined : value), schema);

const webAddress = z.url({ protocol: /^https?$/, error: 'an http(s) address such as https://mandje.nl' });
const mailAddress = z.email({ error: 'a plain address such as hallo@mandje.nl' });
const kvkNumber = z.string().regex(/^\d{8}$/, 'a KvK number: 8 digits');

// The AWS regions in the EU (not eu-west-2, London, nor eu-central-2, Zurich); the privacy notice names each.
const EU_REGIONS = [
  'eu-west-1',
  'eu-central-1',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'eu-south-2',
] as const;
export type EuRegion = (typeof EU_REGIONS)[number];
const euRegion = z.enum(EU_REGIONS, {
  error:
    'an AWS region in the EU: eu-west-1 (Ireland), eu-central-1 (Frankfurt), eu-west-3 (Paris), eu-north-1 (Stockholm), eu-south-1 (Milan) or eu-south-2 (Spain)',
});

const siteEnvironment = z.object({
  MANDJE_SITE_URL: setting(webAddress.default('https://mandje.nl')),
  MANDJE_CONTACT_EMAIL: setting(mailAddress.default('hallo@mandje.nl')),
  MANDJE_MAIL_FROM: setting(mailAddress.optional()),
  MANDJE_SOCIAL_NETWORK: setting(z.string().default('Instagram')),
  MANDJE_SOCIAL_HANDLE: setting(z.string().default('@mandje.nl')),
  MANDJE_SOCIAL_URL: setting(webAddress.default('https://www.instagram.com/mandje.nl/')),
  MANDJE_CONTROLLER_NAME: setting(z.string().optional()),
  MANDJE_CONTROLLER_ADDRESS: setting(z.string().optional()),
  MANDJE_CONTROLLER_KVK: setting(kvkNumber.optional()),
  MANDJE_AWS_REGION: setting(euRegion.default('eu-west-1')),
});

export type SiteEnvironment = { [Name in keyof z.input<typeof siteEnvironment>]?: string | undefined };

export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

export function readSiteConfig(env: SiteEnvironment) {
  const parsed = siteEnvironment.safeParse(env);
  if (!parsed.success)
    throw new SiteConfigError(
      parsed.error.issues
        .map(
          ({ path: [name], message }) =>
            `${String(name)} must be ${message}, not ${JSON.stringify(env[name as keyof SiteEnvironment])}`,
        )
        .join('\n'),
    );
  const vars = parsed.data;
  return {
    brandName: BRAND_NAME,
    siteUrl: vars.MANDJE_SITE_URL.replace(/\/+$/, ''),
    contactEmail: vars.MANDJE_CONTACT_EMAIL,
    // The mails' sender: a plain address, whose domain SES sends as.
    mailFrom: vars.MANDJE_MAIL_FROM ?? vars.MANDJE_CONTACT_EMAIL,
    socialProfile: {
      network: vars.MANDJE_SOCIAL_NETWORK,
      handle: vars.MANDJE_SOCIAL_HANDLE,
      url: vars.MANDJE_SOCIAL_URL,
    },
    // Where the stack with the waitlist's data is deployed, whatever region the CDK CLI is given.
    region: vars.MANDJE_AWS_REGION,
    // The controller of the waitlist's data (GDPR art. 13); required before launch.
    controller: {
      ...(vars.MANDJE_CONTROLLER_NAME ? { legalName: vars.MANDJE_CONTROLLER_NAME } : {}),
      ...(vars.MANDJE_CONTROLLER_ADDRESS ? { postalAddress: vars.MANDJE_CONTROLLER_ADDRESS } : {}),
      ...(vars.MANDJE_CONTROLLER_KVK ? { kvkNumber: vars.MANDJE_CONTROLLER_KVK } : {}),
    },
  };
}

export type SiteConfig = ReturnType<typeof readSiteConfig>;

export type PageSiteConfig = Omit<SiteConfig, 'mailFrom'>;

/** Local runs may leave the controller unset; the CDK app (synth, deploy) may not. */
export function requireController({ controller }: SiteConfig): void {
  const unset = [
    ...(controller.legalName ? [] : ['MANDJE_CONTROLLER_NAME']),
    ...(controller.postalAddress ? [] : ['MANDJE_CONTROLLER_ADDRESS']),
    ...(controller.kvkNumber ? [] : ['MANDJE_CONTROLLER_KVK']),
  ];
  if (unset.length > 0)
    throw new SiteConfigError(
      `Set MANDJE_CONTROLLER_NAME (the legal name), MANDJE_CONTROLLER_ADDRESS (the postal address, on one line) and MANDJE_CONTROLLER_KVK (the Chamber of Commerce number, 8 digits) to synthesize or deploy: the privacy notice and the footer name who is responsible for the waitlist's data (GDPR art. 13) and its KvK number (Handelsregisterwet). Unset: ${unset.join(', ')}.`,
    );
}

// Where dist/ records the facts put in the page (never served), so bench/bundle.ts rebuilds with the same.
export const PAGE_SITE_CONFIG_FILE = '.mandje/site-config.json';

export const pageSiteConfig = ({ mailFrom: _sender, ...page }: SiteConfig): PageSiteConfig => page;

export const DEFAULT_SITE_CONFIG: SiteConfig = readSiteConfig({});
