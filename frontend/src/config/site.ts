import type { PageSiteConfig } from '#contract/site-config';

/**
 * The site's facts that are not copy (#contract/site-config, from the MANDJE_* variables): the build reads
 * them once and Vite writes the resolved values in place of __SITE_CONFIG__ (frontend/vite.config.ts), so
 * the bundle carries the values and none of the reading.
 */
export const siteConfig: PageSiteConfig = __SITE_CONFIG__;
