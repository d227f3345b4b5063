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
  // A setting to correct: one line, without a stack trace.
  if (!(error instanceof DeploySettingError || error instanceof SiteConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
