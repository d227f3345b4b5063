/**
 * The CDK app: `npm run synth` and `npm run deploy` run this. Confirmation mails need a sender, and a
 * custom domain is optional (every setting: infra/deploy-settings.ts):
 *   cdk deploy -c mailFrom=hallo@mandje.nl -c domainNames=mandje.nl,www.mandje.nl -c certificateArn=arn:aws:acm:us-east-1:…
 */
import { resolve } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DeploySettingError, deploySettings } from '../deploy-settings';
import { MandjeStack } from '../mandje-stack';
import { acknowledgeNagFindings } from '../nag-acknowledgements';

const app = new App();
try {
  const stack = new MandjeStack(app, 'Mandje', {
    description: 'Mandje: landing page and waitlist',
    siteDir: resolve(import.meta.dirname, '../../dist'),
    functionsDir: resolve(import.meta.dirname, '../../dist-functions'),
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    ...deploySettings(app),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  acknowledgeNagFindings(stack);
} catch (error) {
  // A setting to correct, not a fault in the code: its one line says which, without a stack trace.
  if (!(error instanceof DeploySettingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
