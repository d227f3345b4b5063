import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readSiteConfig, requireController, type SiteEnvironment } from '#contract/site-config';
import { deploySettings } from './deploy-settings';
import { addMandjeStacks, type MandjeStacks } from './mandje-stacks';
import { acknowledgeNagFindings } from './nag-acknowledgements';

/** The edge stack's reference needs a known region; the CDK CLI always gives one, this is for running without it. */
const DEFAULT_REGION = 'eu-west-1';

export interface MandjeAppOptions {
  siteDir: string;
  functionsDir: string;
  /** The site's facts (MANDJE_*, #contract/site-config), and the account and region the CDK CLI gives. */
  env: SiteEnvironment & { CDK_DEFAULT_ACCOUNT?: string; CDK_DEFAULT_REGION?: string };
}

/**
 * The stacks of one deployment with cdk-nag's checks. The site must name the controller of the data: whatever
 * this app synthesizes is meant to go live. Throws DeploySettingError or SiteConfigError for a setting to correct.
 */
export function addMandjeApp(app: App, { siteDir, functionsDir, env }: MandjeAppOptions): MandjeStacks {
  const site = readSiteConfig(env);
  requireController(site);
  const stacks = addMandjeStacks(app, {
    description: 'Mandje: landing page and waitlist',
    siteDir,
    functionsDir,
    env: { account: env.CDK_DEFAULT_ACCOUNT, region: env.CDK_DEFAULT_REGION ?? DEFAULT_REGION },
    contactEmail: site.contactEmail,
    ...deploySettings(app, env),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  acknowledgeNagFindings(stacks.mandje);
  return stacks;
}
