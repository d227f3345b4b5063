import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, synthStack } from './synth';
import { logicalIdOf, resourceOf } from './template-queries';

/** The stack as `cdk deploy -c mailFrom=… -c <context>` makes it, with WAF off to synthesize less. */
function deployedWith(context: Record<string, string>): { stack: MandjeStack; template: Template } {
  const app = new App({ context: { mailFrom: MAIL_FROM, waf: 'false', ...context } });
  const stack = synthStack(deploySettings(app), app);
  return { stack, template: Template.fromStack(stack) };
}

const stageThrottle = (template: Template) => {
  const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
    Properties: { DefaultRouteSettings: unknown };
  }[];
  return stage?.Properties.DefaultRouteSettings;
};

describe('the API’s capacity, from the deploy settings', () => {
  it('throttles the stage at 1,000 requests a second, bursts of 2,000, unless told', () => {
    expect(stageThrottle(deployedWith({}).template)).toEqual({
      ThrottlingRateLimit: 1000,
      ThrottlingBurstLimit: 2000,
    });
  });

  it('throttles the stage at -c apiRateLimit, bursts of twice that', () => {
    expect(stageThrottle(deployedWith({ apiRateLimit: '300' }).template)).toEqual({
      ThrottlingRateLimit: 300,
      ThrottlingBurstLimit: 600,
    });
  });

  it('reserves no concurrency for any function unless told: a reservation takes from the account’s pool', () => {
    const { template } = deployedWith({});
    for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function')))
      expect(
        (fn as { Properties: Record<string, unknown> }).Properties.ReservedConcurrentExecutions,
        id,
      ).toBe(undefined);
  });

  it('reserves -c apiReservedConcurrency executions for the waitlist function', () => {
    const { stack, template } = deployedWith({ apiRateLimit: '500', apiReservedConcurrency: '80' });
    expect(
      resourceOf(template, logicalIdOf(stack.waitlist.handler)).Properties.ReservedConcurrentExecutions,
    ).toBe(80);
  });
});
