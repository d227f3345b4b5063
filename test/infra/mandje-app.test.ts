// The app as the CDK CLI runs it (infra/bin/app.ts), with no context; what it synthesizes is meant to go live,
// so it asks who is responsible for the data (example values here, as `npm run test:aws` gives its synth).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { SiteConfigError } from '#contract/site-config';
import { addMandjeApp } from '../../infra/mandje-app';
import { EXAMPLE_CONTROLLER, fakeFunctionsDir, fakeSiteDir, propertiesOf, synthApp } from './synth';

describe('the CDK app with no context', () => {
  it('synthesizes every stack, its checks passing, mailing from MANDJE_MAIL_FROM', () => {
    const { app, mandje } = synthApp({ MANDJE_MAIL_FROM: 'post@example.nl' });

    expect(app.synth().stacks.map((stack) => stack.stackName)).toEqual(['MandjeEdge', 'Mandje']);
    expect(JSON.stringify(propertiesOf(Template.fromStack(mandje), mandje.mailer.handler))).toContain(
      '"MAIL_FROM":"post@example.nl"',
    );
  });
});

describe('where the data lives', () => {
  // The CDK CLI always gives the app a region: the profile's, or us-east-1 when none is configured.
  const CLI = { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'us-east-1' };
  const regionOf = (env: Record<string, string>) => {
    const { app } = synthApp({ ...CLI, ...env });
    return Object.fromEntries(app.synth().stacks.map((stack) => [stack.stackName, stack.environment.region]));
  };

  it('puts the stack with every address in the configured EU region, whatever region the CLI is given', () => {
    expect(regionOf({})).toEqual({ Mandje: 'eu-west-1', MandjeEdge: 'us-east-1' });
    expect(regionOf({ MANDJE_AWS_REGION: 'eu-central-1' })).toEqual({
      Mandje: 'eu-central-1',
      MandjeEdge: 'us-east-1',
    });
  });
});

describe('the controller of the data, which a deploy must name', () => {
  it('stops the app when one is unset, naming the settings and the unset ones', () => {
    const env = { MANDJE_CONTROLLER_NAME: 'Voorbeeld B.V.', MANDJE_CONTROLLER_ADDRESS: 'Voorbeeldstraat 1' };
    const synthesize = () =>
      addMandjeApp(new App(), { siteDir: fakeSiteDir(), functionsDir: fakeFunctionsDir(), env });
    expect(synthesize).toThrow(SiteConfigError);
    expect(synthesize).toThrow(
      /MANDJE_CONTROLLER_NAME .*MANDJE_CONTROLLER_ADDRESS .*Unset: MANDJE_CONTROLLER_KVK\.$/,
    );
  });

  it('stops `npm run synth` and `npm run deploy` before their build, with one line naming the settings', () => {
    const repoRoot = resolve(import.meta.dirname, '../..');
    const {
      MANDJE_CONTROLLER_NAME: _name,
      MANDJE_CONTROLLER_ADDRESS: _address,
      MANDJE_CONTROLLER_KVK: _kvk,
      ...env
    } = process.env;
    const scripts = JSON.parse(
      spawnSync('npm', ['pkg', 'get', 'scripts'], { cwd: repoRoot, encoding: 'utf8' }).stdout,
    ) as Record<string, string>;
    const firstStep = (script = '') => script.split(' && ')[0] ?? '';

    const check = spawnSync('npx', ['tsx', 'infra/bin/require-controller.ts'], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    const given = spawnSync('npx', ['tsx', 'infra/bin/require-controller.ts'], {
      cwd: repoRoot,
      env: { ...env, ...EXAMPLE_CONTROLLER },
      encoding: 'utf8',
    });

    expect(firstStep(scripts.synth)).toBe('tsx infra/bin/require-controller.ts');
    expect(firstStep(scripts.deploy)).toBe('tsx infra/bin/require-controller.ts');
    expect(check.status).toBe(1);
    expect(check.stderr.trim()).toMatch(
      /^Set MANDJE_CONTROLLER_NAME .* Unset: MANDJE_CONTROLLER_NAME, MANDJE_CONTROLLER_ADDRESS, MANDJE_CONTROLLER_KVK\.$/,
    );
    expect(given.status).toBe(0);
  });
});
