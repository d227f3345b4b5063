import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
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

/**
 * What the functions no visitor waits for (mail-requests and the mailer) may take
 * at once, a stream's mapping counted per shard: at most 6, so that on a new account's quota of 10
 * concurrent executions the functions that answer visitors keep at least 4.
 */
const BACKGROUND_EXECUTIONS_AT_MOST = 6;

type Mapping = {
  StartingPosition?: string;
  ParallelizationFactor?: number;
  ScalingConfig?: { MaximumConcurrency?: number };
};

describe('the background functions, on a new account’s 10 concurrent executions', () => {
  let template: Template;
  let mappings: Mapping[];
  beforeAll(() => {
    ({ template } = deployedWith({}));
    mappings = (
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as { Properties: Mapping }[]
    ).map(({ Properties }) => Properties);
  });
  /** A stream's mapping has a starting position; a queue's has none. */
  const isStream = (mapping: Mapping) => mapping.StartingPosition !== undefined;

  it('read each stream shard one batch at a time: every parallelization factor is 1 (its default)', () => {
    const streams = mappings.filter(isStream);
    expect(streams.length).toBeGreaterThan(0);
    for (const mapping of streams) expect(mapping.ParallelizationFactor ?? 1).toBe(1);
  });

  it(`take at most ${BACKGROUND_EXECUTIONS_AT_MOST} executions between them, each queue’s mapping capped`, () => {
    const perMapping = mappings.map((mapping) =>
      isStream(mapping)
        ? (mapping.ParallelizationFactor ?? 1)
        : // A queue's mapping without a cap scales up to 1,250 executions.
          (mapping.ScalingConfig?.MaximumConcurrency ?? Number.POSITIVE_INFINITY),
    );
    const reserved = (
      Object.values(template.findResources('AWS::Lambda::Function')) as {
        Properties: { ReservedConcurrentExecutions?: number };
      }[]
    ).map(({ Properties }) => Properties.ReservedConcurrentExecutions ?? 0);
    const total = [...perMapping, ...reserved].reduce((sum, executions) => sum + executions, 0);
    expect(total).toBeLessThanOrEqual(BACKGROUND_EXECUTIONS_AT_MOST);
  });
});
