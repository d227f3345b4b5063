/**
 * The app as the CDK CLI runs it (infra/bin/app.ts): `cdk bootstrap` and `cdk synth` list its stacks with no
 * context at all, so it must synthesize without any deploy setting, its checks (cdk-nag) included.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '#contract/site-config';
import { addMandjeApp } from '../../infra/mandje-app';
import { fakeFunctionsDir, fakeSiteDir } from './synth';
import { logicalIdOf, present, resourceOf } from './template-queries';

function appWith(env: Record<string, string>) {
  const app = new App({
    outdir: `${process.env.TMPDIR ?? '/tmp'}/mandje-app-${Date.now()}-${Math.random()}`,
  });
  const stacks = addMandjeApp(app, { siteDir: fakeSiteDir(), functionsDir: fakeFunctionsDir(), env });
  return { app, ...stacks };
}

const mailFromOf = (stack: ReturnType<typeof appWith>['mandje']) => {
  const mailer = present(stack.mailer, 'mailer').handler;
  const { Variables } = resourceOf(Template.fromStack(stack), logicalIdOf(mailer)).Properties.Environment as {
    Variables: Record<string, unknown>;
  };
  return Variables.MAIL_FROM;
};

describe('the CDK app with no context', () => {
  it('synthesizes every stack, its checks passing, and mails from the site config’s sender', () => {
    const { app, mandje } = appWith({});

    const assembly = app.synth();

    expect(assembly.stacks.map((stack) => stack.stackName).sort()).toEqual(
      ['Mandje', 'MandjeEdge', 'MandjeEdgeLogs'].sort(),
    );
    expect(mailFromOf(mandje)).toBe(DEFAULT_SITE_CONFIG.mailFrom);
  });

  it('mails from MANDJE_MAIL_FROM when it is set', () => {
    const { mandje } = appWith({ MANDJE_MAIL_FROM: 'post@example.nl' });

    expect(mailFromOf(mandje)).toBe('post@example.nl');
  });
});
