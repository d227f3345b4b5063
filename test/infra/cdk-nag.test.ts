import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { acknowledgeNagFindings, nagAcknowledgements } from '../../infra/nag-acknowledgements';
import { synthStack } from './synth';

function appWithNag(acknowledge: boolean) {
  const app = new App({
    outdir: `${process.env.TMPDIR ?? '/tmp'}/mandje-cdk-nag-${Date.now()}-${Math.random()}`,
  });
  const stack = synthStack({}, app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  if (acknowledge) acknowledgeNagFindings(stack);
  return { app, stack };
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the stack', () => {
    const { app } = appWithNag(true);
    expect(() => app.synth()).not.toThrow();
  });

  it('is really checking: without the acknowledgements the synth fails', () => {
    const { app } = appWithNag(false);
    expect(() => app.synth()).toThrow();
  });

  it('gives every acknowledgement a rule and a reason a reviewer can weigh', () => {
    const { stack } = appWithNag(false);
    for (const { rule, reason } of nagAcknowledgements(stack)) {
      expect(rule).toMatch(/^AwsSolutions::AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, rule).toBeGreaterThan(40);
    }
  });
});
