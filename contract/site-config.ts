/**
 * The site's facts that are not copy: where it lives, who to write to, who sends its mails, where to follow
 * it, and who is responsible for it. One owner for each, read once from one set of variables, checked:
 *
 * | Variable                  | Fact                                                   | Default                                |
 * | ------------------------- | ------------------------------------------------------ | -------------------------------------- |
 * | `MANDJE_SITE_URL`         | the origin of canonical and Open Graph URLs            | `https://mandje.nl`                    |
 * | `MANDJE_CONTACT_EMAIL`    | the address the page, the mails and security.txt name  | `hallo@mandje.nl`                      |
 * | `MANDJE_MAIL_FROM`        | the sender of the mails (on AWS: also `-c mailFrom`)   | the contact address                    |
 * | `MANDJE_SOCIAL_NETWORK`   | the social profile's network                           | `Instagram`                            |
 * | `MANDJE_SOCIAL_HANDLE`    | its handle                                             | `@mandje.nl`                           |
 * | `MANDJE_SOCIAL_URL`       | its address                                            | `https://www.instagram.com/mandje.nl/` |
 * | `MANDJE_CONTROLLER_NAME`  | the controller's legal name (GDPR art. 13)             | unset; a deploy needs it               |
 * | `MANDJE_CONTROLLER_ADDRESS` | its postal address, on one line                      | unset; a deploy needs it               |
 * | `MANDJE_CONTROLLER_KVK`   | its Chamber of Commerce (KvK) number, 8 digits         | unset                                  |
 *
 * An empty variable counts as unset (the deploy workflow passes a repository variable that does not exist
 * as ""). Readers: the page's build (frontend/vite.config.ts puts the resolved values in the bundle, so the
 * browser never carries this module or zod), the runner, the operator's tool and the CDK app, which hands
 * the functions what they need through their environment (SITE_URL, MAIL_FROM, CONTACT_EMAIL).
 *
 * The environment is passed in: this module reads nothing by itself.
 */
import { z } from 'zod';
import { BRAND_NAME } from './brand';

const DEFAULTS = {
  siteUrl: 'https://mandje.nl',
  contactEmail: 'hallo@mandje.nl',
  socialNetwork: 'Instagram',
  socialHandle: '@mandje.nl',
  socialUrl: 'https://www.instagram.com/mandje.nl/',
} as const;

/** Trimmed; empty is unset. */
const setting = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim() || undefined : value), schema);

const webAddress = z.url({ protocol: /^https?$/, error: 'an http(s) address such as https://mandje.nl' });
const mailAddress = z.email({ error: 'a plain address such as hallo@mandje.nl' });

const siteEnvironment = z.object({
  MANDJE_SITE_URL: setting(webAddress.default(DEFAULTS.siteUrl)),
  MANDJE_CONTACT_EMAIL: setting(mailAddress.default(DEFAULTS.contactEmail)),
  MANDJE_MAIL_FROM: setting(mailAddress.optional()),
  MANDJE_SOCIAL_NETWORK: setting(z.string().default(DEFAULTS.socialNetwork)),
  MANDJE_SOCIAL_HANDLE: setting(z.string().default(DEFAULTS.socialHandle)),
  MANDJE_SOCIAL_URL: setting(webAddress.default(DEFAULTS.socialUrl)),
  MANDJE_CONTROLLER_NAME: setting(z.string().optional()),
  MANDJE_CONTROLLER_ADDRESS: setting(z.string().optional()),
  MANDJE_CONTROLLER_KVK: setting(
    z
      .string()
      .regex(/^\d{8}$/, 'a KvK number: 8 digits')
      .optional(),
  ),
});

/** The variables this module reads; nothing else in the environment is a site fact. */
export type SiteEnvironment = { [Name in keyof z.input<typeof siteEnvironment>]?: string | undefined };

/** A failed reading of the site's variables: one line per variable, naming it and what it must be. */
export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

export interface SiteConfig {
  brandName: typeof BRAND_NAME;
  /** Origin used for canonical and Open Graph URLs, without a trailing slash. */
  siteUrl: string;
  contactEmail: string;
  /** The mails' sender: a plain address, whose domain SES sends as. */
  mailFrom: string;
  socialProfile: { network: string; handle: string; url: string };
  /**
   * The controller of the waitlist's data (GDPR art. 13): the legal person behind the brand, its postal
   * address and its Chamber of Commerce (KvK) number when it has one. Unset until given: required before
   * launch.
   */
  controller: { legalName?: string; postalAddress?: string; kvkNumber?: string };
}

/** What the page shows of the site's facts: all but the sender, which only the mails need. */
export type PageSiteConfig = Omit<SiteConfig, 'mailFrom'>;

/** The site's facts from the environment given (the process's, usually); throws SiteConfigError if one is invalid. */
export function readSiteConfig(env: SiteEnvironment): SiteConfig {
  const known = Object.fromEntries(
    Object.keys(siteEnvironment.shape).map((name) => [name, env[name as keyof SiteEnvironment]]),
  );
  const parsed = siteEnvironment.safeParse(known);
  if (!parsed.success)
    throw new SiteConfigError(
      parsed.error.issues
        .map((issue) => {
          const name = String(issue.path[0]);
          return `${name} must be ${issue.message}, not ${JSON.stringify(known[name])}`;
        })
        .join('\n'),
    );
  const vars = parsed.data;
  return {
    brandName: BRAND_NAME,
    siteUrl: vars.MANDJE_SITE_URL.replace(/\/+$/, ''),
    contactEmail: vars.MANDJE_CONTACT_EMAIL,
    mailFrom: vars.MANDJE_MAIL_FROM ?? vars.MANDJE_CONTACT_EMAIL,
    socialProfile: {
      network: vars.MANDJE_SOCIAL_NETWORK,
      handle: vars.MANDJE_SOCIAL_HANDLE,
      url: vars.MANDJE_SOCIAL_URL,
    },
    controller: {
      ...(vars.MANDJE_CONTROLLER_NAME ? { legalName: vars.MANDJE_CONTROLLER_NAME } : {}),
      ...(vars.MANDJE_CONTROLLER_ADDRESS ? { postalAddress: vars.MANDJE_CONTROLLER_ADDRESS } : {}),
      ...(vars.MANDJE_CONTROLLER_KVK ? { kvkNumber: vars.MANDJE_CONTROLLER_KVK } : {}),
    },
  };
}

/** The variables a deploy must have, unset as they may be locally: who is responsible for the data. */
export const CONTROLLER_SETTINGS = ['MANDJE_CONTROLLER_NAME', 'MANDJE_CONTROLLER_ADDRESS'] as const;

/**
 * A site that goes live names the legal person responsible for the waitlist's data and its address (GDPR
 * art. 13): without them the privacy notice could only name the brand. `npm start`, `npm run build` and the
 * tests may leave them unset; the CDK app, which `npm run synth` and `npm run deploy` run, may not. Throws
 * SiteConfigError naming both variables and which of them is unset.
 */
export function requireController({ controller }: SiteConfig): void {
  const given = {
    MANDJE_CONTROLLER_NAME: controller.legalName,
    MANDJE_CONTROLLER_ADDRESS: controller.postalAddress,
  };
  const unset = CONTROLLER_SETTINGS.filter((name) => !given[name]);
  if (unset.length > 0)
    throw new SiteConfigError(
      `Set MANDJE_CONTROLLER_NAME (the legal name) and MANDJE_CONTROLLER_ADDRESS (the postal address, on one line) to synthesize or deploy: the privacy notice and the footer name who is responsible for the waitlist's data (GDPR art. 13). Unset: ${unset.join(', ')}.`,
    );
}

/**
 * Where in dist/ the build records the facts it put in the page (a dot folder: never served, never
 * deployed), so a second build of the same bundle (bench/bundle.ts) is given the same, whatever its own
 * environment says: `npm run test:aws` builds the page with an example controller, the budgets measure it.
 */
export const PAGE_SITE_CONFIG_FILE = '.mandje/site-config.json';

/** The facts the page shows, without the sender. */
export function pageSiteConfig({ mailFrom: _sender, ...page }: SiteConfig): PageSiteConfig {
  return page;
}

/** The site's facts with every variable unset. */
export const DEFAULT_SITE_CONFIG: SiteConfig = readSiteConfig({});
