import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import type { MandjeStackProps } from '../../infra/mandje-stack';
import { acknowledgeNagFindings, nagAcknowledgements } from '../../infra/nag-acknowledgements';
import { MAIL_FROM, synthStack } from './synth';

const MODES: [string, MandjeStackProps['confirmation']][] = [
  ['with confirmation by mail', { mailFrom: MAIL_FROM }],
  ['without confirmation by mail', false],
];

function appWithNag(confirmation: MandjeStackProps['confirmation'], acknowledge: boolean) {
  const app = new App({
    outdir: `${process.env.TMPDIR ?? '/tmp'}/mandje-cdk-nag-${Date.now()}-${Math.random()}`,
  });
  const stack = synthStack({ confirmation }, app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  if (acknowledge) acknowledgeNagFindings(stack);
  return { app, stack };
}

describe.each(MODES)('cdk-nag AwsSolutions, %s', (_mode, confirmation) => {
  it('finds nothing unacknowledged in the stack', () => {
    const { app } = appWithNag(confirmation, true);
    expect(() => app.synth()).not.toThrow();
  });

  it('is really checking: without the acknowledgements the synth fails', () => {
    const { app } = appWithNag(confirmation, false);
    expect(() => app.synth()).toThrow();
  });

  it('gives every acknowledgement a rule and a reason a reviewer can weigh', () => {
    const { stack } = appWithNag(confirmation, false);
    for (const { rule, reason } of nagAcknowledgements(stack)) {
      expect(rule).toMatch(/^AwsSolutions::AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, rule).toBeGreaterThan(40);
    }
  });
});
