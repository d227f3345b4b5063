/**
 * The first step of `npm run synth` and `npm run deploy`, before anything is built: a deploy names the
 * controller of the waitlist's data (#contract/site-config requireController), and without it stops here
 * with one line naming the settings, not after the build. The CDK app (app.ts) checks the same again, for
 * a `cdk deploy` run by hand.
 */
import { readSiteConfig, requireController, SiteConfigError } from '#contract/site-config';

try {
  requireController(readSiteConfig(process.env));
} catch (error) {
  if (!(error instanceof SiteConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
