import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeEdgeStack } from '../../infra/mandje-app';
import { nagAcknowledgements } from '../../infra/mandje-app';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, synthStacks } from './synth';
import { distributionConfigOf } from './template-queries';

let app: App;
let mandje: MandjeStack;
let edge: MandjeEdgeStack | undefined;
let template: Template;

beforeAll(() => {
  // As `cdk deploy -c waf=false` gives it.
  app = new App({ context: { mailFrom: MAIL_FROM, waf: 'false' } });
  ({ mandje, edge } = synthStacks(deploySettings(app), app));
  template = Template.fromStack(mandje);
});

it('makes no WAF stack in us-east-1: the app has the Mandje stack only', () => {
  expect(edge).toBeUndefined();
  const stacks = app.node.children.filter((child) => child instanceof Stack);
  expect(stacks.map((stack) => stack.node.id)).toEqual(['Mandje']);
});

it('gives the distribution no web ACL, and reads nothing from another stack', () => {
  expect(distributionConfigOf(template).WebACLId).toBeUndefined();
  template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  expect(JSON.stringify(template.toJSON())).not.toContain('Fn::GetStackOutput');
});

it('still asks for the origin header: without WAF the edge is the only way in all the same', () => {
  expect(JSON.stringify(template.findResources('AWS::CloudFront::Distribution'))).toContain(
    'x-mandje-origin-verify',
  );
});

it('acknowledges cdk-nag’s missing-WAF finding only in this mode, with why the API stays held', () => {
  const finding = nagAcknowledgements(mandje).find(({ rule }) => rule.endsWith('CFR2'));
  expect(finding?.reason).toMatch(/-c waf=false/);
});
