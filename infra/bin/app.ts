/**
 * The CDK app: `npm run synth` and `npm run deploy` run this. A custom domain is optional:
 *   cdk deploy -c domainNames=mandje.nl,www.mandje.nl -c certificateArn=arn:aws:acm:us-east-1:…
 */
import { resolve } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { MandjeStack } from '../mandje-stack';
import { acknowledgeNagFindings } from '../nag-acknowledgements';

const app = new App();
const domainNames = app.node.tryGetContext('domainNames') as string | undefined;
const certificateArn = app.node.tryGetContext('certificateArn') as string | undefined;

const stack = new MandjeStack(app, 'Mandje', {
  description: 'Mandje: landing page and waitlist',
  siteDir: resolve(import.meta.dirname, '../../dist'),
  functionsDir: resolve(import.meta.dirname, '../../dist-functions'),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...(domainNames && certificateArn
    ? { domain: { names: domainNames.split(',').map((name) => name.trim()), certificateArn } }
    : {}),
});

Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
acknowledgeNagFindings(stack);
