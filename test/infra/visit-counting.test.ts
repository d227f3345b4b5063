/**
 * What the stack gives visitor counting (functions/visit): a table for the day's visitors that keeps nothing
 * past its day, and the dashboard's visits from the function's own metric. No access logs anywhere, and no
 * stack in us-east-1 for them. The beacon's route to the waitlist function is held on the production path
 * (test/aws/signup-to-leave.test.ts, "a visitor, as AWS counts them").
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStacks } from './synth';
import { distributionConfigOf, logicalIdOf, type Resource, resourceOf } from './template-queries';

let app: App;
let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  app = new App();
  stack = synthStacks({}, app).mandje;
  template = Template.fromStack(stack);
});

describe('the visitor table', () => {
  const table = () => resourceOf(template, logicalIdOf(stack.waitlist.visitorTable));

  it('is on demand, and its time to live deletes each item after its day', () => {
    expect(table().Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('has no backups, which would keep a day’s salt, and goes with the stack: nothing in it is worth keeping', () => {
    expect(table().Properties.PointInTimeRecoverySpecification).toBeUndefined();
    expect([table().DeletionPolicy, table().UpdateReplacePolicy]).toEqual(['Delete', 'Delete']);
  });

  it('is the waitlist function’s alone: no other role names it', () => {
    const visitorTable = logicalIdOf(stack.waitlist.visitorTable);
    const waitlistPolicy = (policy: Resource) =>
      JSON.stringify(policy.Properties.Roles) ===
      JSON.stringify([{ Ref: logicalIdOf(stack.waitlist.handler.role ?? stack.waitlist.handler) }]);
    const naming = (Object.values(template.findResources('AWS::IAM::Policy')) as Resource[]).filter(
      (policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(visitorTable),
    );
    expect(naming.length).toBe(1);
    expect(naming.every(waitlistPolicy)).toBe(true);
  });
});

it('keeps no access logs of the distribution, and makes no stack in us-east-1 but the web ACL’s', () => {
  expect(distributionConfigOf(template).Logging).toBeUndefined();
  const stacks = app.node.children.filter((child) => child instanceof Stack) as Stack[];
  expect(stacks.map((each) => [each.node.id, each.region])).toEqual([
    ['MandjeEdge', 'us-east-1'],
    ['Mandje', 'eu-west-1'],
  ]);
  for (const each of stacks)
    for (const type of ['AWS::Logs::DeliverySource', 'AWS::Logs::Delivery', 'AWS::Logs::Transformer'])
      Template.fromStack(each).resourceCountIs(type, 0);
});

it('shows the visits on the dashboard from the beacon’s own metric, by language, in the stack’s region', () => {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
  // The body is JSON text joined with references: each metric is an array naming its dimensions.
  const body = JSON.stringify(dashboard?.Properties.DashboardBody).replaceAll('\\"', '"');

  // No region of its own: the widget's, the stack's.
  for (const language of ['nl', 'en'])
    expect(body).toContain(
      `["Mandje","Visits","Language","${language}","Service","visit",{"label":"Visits ${language}","period":86400,"stat":"Sum"}]`,
    );
});
