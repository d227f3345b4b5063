/**
 * Facts about the product that are not copy: who to contact, where to follow it, where it lives.
 * Each can be overridden at build time with the VITE_* variable next to it (see README).
 */
export interface SiteConfig {
  brandName: string;
  /** Origin used for canonical and Open Graph URLs, without a trailing slash. */
  siteUrl: string;
  contactEmail: string;
  socialProfile: { network: string; handle: string; url: string };
}

// Vite fills import.meta.env at build time; outside Vite (end-to-end tests reading the facts) it is absent.
const env: Partial<ImportMetaEnv> = import.meta.env ?? {};

export const siteConfig = {
  brandName: 'Mandje',
  siteUrl: (env.VITE_SITE_URL ?? 'https://mandje.nl').replace(/\/+$/, ''),
  contactEmail: env.VITE_CONTACT_EMAIL ?? 'hallo@mandje.nl',
  socialProfile: {
    network: env.VITE_SOCIAL_NETWORK ?? 'Instagram',
    handle: env.VITE_SOCIAL_HANDLE ?? '@mandje.nl',
    url: env.VITE_SOCIAL_URL ?? 'https://www.instagram.com/mandje.nl/',
  },
} satisfies SiteConfig;
