/**
 * The CDK app: `npm run synth` and `npm run deploy` run this. Confirmation mails need a sender, and a
 * custom domain is optional (every setting: infra/deploy-settings.ts):
 *   cdk deploy --all -c mailFrom=hallo@mandje.nl -c domainNames=mandje.nl,www.mandje.nl -c certificateArn=arn:aws:acm:us-east-1:…
 */
import { resolve } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DeploySettingError, deploySettings } from '../deploy-settings';
import { addMandjeStacks } from '../mandje-stacks';
import { acknowledgeEdgeNagFindings, acknowledgeNagFindings } from '../nag-acknowledgements';

/**
 * The edge stack's reference needs the Mandje stack's region to be known. The CDK CLI always gives one (the
 * AWS configuration's, or us-east-1 when there is none, as in CI's offline synth); this is for running the
 * app without the CLI.
 */
const DEFAULT_REGION = 'eu-west-1';

const app = new App();
try {
  const { mandje, edge } = addMandjeStacks(app, {
    description: 'Mandje: landing page and waitlist',
    siteDir: resolve(import.meta.dirname, '../../dist'),
    functionsDir: resolve(import.meta.dirname, '../../dist-functions'),
    env: {
      account: process.env.CDK_DEFAULT_ACCOUNT,
      region: process.env.CDK_DEFAULT_REGION ?? DEFAULT_REGION,
    },
    ...deploySettings(app),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  acknowledgeNagFindings(mandje);
  if (edge) acknowledgeEdgeNagFindings(edge);
} catch (error) {
  // A setting to correct, not a fault in the code: its one line says which, without a stack trace.
  if (!(error instanceof DeploySettingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
