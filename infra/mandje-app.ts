import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readSiteConfig, requireController, type SiteEnvironment } from '#contract/site-config';
import { deploySettings } from './deploy-settings';
import { addMandjeStacks } from './mandje-stacks';
import { acknowledgeNagFindings } from './nag-acknowledgements';

/** The site's facts (MANDJE_*, #contract/site-config), and the account and region the CDK CLI gives. */
type AppEnvironment = SiteEnvironment & { CDK_DEFAULT_ACCOUNT?: string; CDK_DEFAULT_REGION?: string };

/**
 * The stacks of one deployment with cdk-nag's checks. The site must name the controller of the data: whatever
 * this app synthesizes is meant to go live. Throws DeploySettingError or SiteConfigError for a setting to correct.
 */
export function addMandjeApp(
  app: App,
  { siteDir, functionsDir, env }: { siteDir: string; functionsDir: string; env: AppEnvironment },
) {
  const site = readSiteConfig(env);
  requireController(site);
  const stacks = addMandjeStacks(app, {
    description: 'Mandje: landing page and waitlist',
    siteDir,
    functionsDir,
    // The edge stack's reference needs a known region; the CDK CLI always gives one.
    env: { account: env.CDK_DEFAULT_ACCOUNT, region: env.CDK_DEFAULT_REGION ?? 'eu-west-1' },
    contactEmail: site.contactEmail,
    ...deploySettings(app, env),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  acknowledgeNagFindings(stacks.mandje);
  return stacks;
}
