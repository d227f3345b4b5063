import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import type { MandjeStacksProps } from '../../infra/mandje-app';
import { nagAcknowledgements } from '../../infra/mandje-app';
import { MAIL_FROM, synthStacks } from './synth';

const MODES: [string, Pick<MandjeStacksProps, 'confirmation' | 'waf'>][] = [
  ['with confirmation by mail and WAF', { confirmation: { mailFrom: MAIL_FROM }, waf: true }],
  ['without WAF', { confirmation: { mailFrom: MAIL_FROM }, waf: false }],
];

function appWithNag(mode: Pick<MandjeStacksProps, 'confirmation' | 'waf'>, acknowledge: boolean) {
  const app = new App({
    outdir: `${process.env.TMPDIR ?? '/tmp'}/mandje-cdk-nag-${Date.now()}-${Math.random()}`,
  });
  const stacks = synthStacks(mode, app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  if (acknowledge)
    for (const { construct, rule: id, reason } of nagAcknowledgements(stacks.mandje))
      Validations.of(construct).acknowledge({ id, reason });
  return { app, ...stacks };
}

describe.each(MODES)('cdk-nag AwsSolutions, %s', (_mode, mode) => {
  it('finds nothing unacknowledged in the stacks', () => {
    const { app } = appWithNag(mode, true);
    expect(() => app.synth()).not.toThrow();
  });

  it('is really checking: without the acknowledgements the synth fails', () => {
    const { app } = appWithNag(mode, false);
    expect(() => app.synth()).toThrow();
  });
});
