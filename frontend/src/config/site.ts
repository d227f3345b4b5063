import type { PageSiteConfig } from '#contract/site-config';

// Vite writes the resolved MANDJE_* values in place of __SITE_CONFIG__ (frontend/vite.config.ts).
export const siteConfig: PageSiteConfig = __SITE_CONFIG__;
