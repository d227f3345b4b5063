import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readSiteConfig, requireController, type SiteEnvironment } from '#contract/site-config';
import { deploySettings } from './deploy-settings';
import { addMandjeStacks, type MandjeStacks } from './mandje-stacks';
import { acknowledgeEdgeNagFindings, acknowledgeNagFindings } from './nag-acknowledgements';

/**
 * The edge stack's reference needs the Mandje stack's region to be known. The CDK CLI always gives one (the
 * AWS configuration's, or us-east-1 when there is none, as in CI's offline synth); this is for running the
 * app without the CLI.
 */
const DEFAULT_REGION = 'eu-west-1';

export interface MandjeAppOptions {
  /** The built page (dist/) and the built functions (dist-functions/). */
  siteDir: string;
  functionsDir: string;
  /**
   * The process's environment: the site's facts (MANDJE_*, #contract/site-config), read as the page's build
   * reads them, and the account and region the CDK CLI gives.
   */
  env: SiteEnvironment & { CDK_DEFAULT_ACCOUNT?: string; CDK_DEFAULT_REGION?: string };
}

/**
 * The stacks of one deployment with their checks, from the deploy settings (`-c name=value`) and the site's
 * facts, which must name the controller of the data (requireController): whatever this app synthesizes is
 * meant to go live. Throws DeploySettingError or SiteConfigError for a setting to correct.
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
  if (stacks.edge) acknowledgeEdgeNagFindings(stacks.edge);
  return stacks;
}
