/**
 * The CDK app: `npm run synth`, `npm run deploy` and `cdk bootstrap` run this. Every deploy setting is optional
 * (infra/deploy-settings.ts; the site's facts, the mails' sender among them: #contract/site-config), but the
 * site must name the controller of its data (MANDJE_CONTROLLER_NAME and MANDJE_CONTROLLER_ADDRESS):
 *   cdk deploy --all -c mailFrom=hallo@mandje.nl -c domainNames=mandje.nl,www.mandje.nl -c certificateArn=arn:aws:acm:us-east-1:…
 */
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { SiteConfigError } from '#contract/site-config';
import { DeploySettingError } from '../deploy-settings';
import { addMandjeApp } from '../mandje-app';

const app = new App();
try {
  addMandjeApp(app, {
    siteDir: resolve(import.meta.dirname, '../../dist'),
    functionsDir: resolve(import.meta.dirname, '../../dist-functions'),
    env: process.env,
  });
} catch (error) {
  // A setting to correct, not a fault in the code: its one line says which, without a stack trace.
  if (!(error instanceof DeploySettingError || error instanceof SiteConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
