// The first step of `npm run synth` and `npm run deploy`: without the data's controller, stop before the build.
import { readSiteConfig, requireController, SiteConfigError } from '#contract/site-config';

try {
  requireController(readSiteConfig(process.env));
} catch (error) {
  if (!(error instanceof SiteConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
