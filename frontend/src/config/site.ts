/**
 * Facts about the product that are not copy: who to contact, who is responsible, where to follow it, where
 * it lives. Each can be overridden at build time with the VITE_* variable next to it (see README).
 */
export interface SiteConfig {
  brandName: string;
  /** Origin used for canonical and Open Graph URLs, without a trailing slash. */
  siteUrl: string;
  contactEmail: string;
  socialProfile: { network: string; handle: string; url: string };
  /**
   * The controller of the waitlist's data (GDPR art. 13): the legal person behind the brand, its postal
   * address and its Chamber of Commerce (KvK) number when it has one. Unset until given: required before
   * launch (README, Configuration).
   */
  controller: { legalName?: string; postalAddress?: string; kvkNumber?: string };
}

// Vite fills import.meta.env at build time. Outside Vite (the build script writing robots.txt, sitemap.xml
// and security.txt, the CDK app, the local runner) the same VITE_* variables come from the process's
// environment, so every reader sees the facts the page was built with.
const env: Partial<ImportMetaEnv> =
  import.meta.env ?? (globalThis.process?.env as Partial<ImportMetaEnv> | undefined) ?? {};

export const siteConfig = {
  brandName: 'Mandje',
  siteUrl: (env.VITE_SITE_URL ?? 'https://mandje.nl').replace(/\/+$/, ''),
  contactEmail: env.VITE_CONTACT_EMAIL ?? 'hallo@mandje.nl',
  socialProfile: {
    network: env.VITE_SOCIAL_NETWORK ?? 'Instagram',
    handle: env.VITE_SOCIAL_HANDLE ?? '@mandje.nl',
    url: env.VITE_SOCIAL_URL ?? 'https://www.instagram.com/mandje.nl/',
  },
  // Empty counts as unset: the deploy workflow passes a repository variable that does not exist as "".
  controller: {
    legalName: env.VITE_CONTROLLER_NAME || undefined,
    postalAddress: env.VITE_CONTROLLER_ADDRESS || undefined,
    kvkNumber: env.VITE_CONTROLLER_KVK || undefined,
  },
} satisfies SiteConfig;
