/// <reference types="vite/client" />

/** The site's facts as the build read them (frontend/vite.config.ts, `define`). */
declare const __SITE_CONFIG__: import('#contract/site-config').PageSiteConfig;
