import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, type Resource, resourceOf } from './template-queries';

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  // As `cdk deploy -c confirmSignups=false` gives it, and with no sender: none is needed.
  const app = new App({ context: { confirmSignups: 'false' } });
  stack = synthStack(deploySettings(app), app);
  template = Template.fromStack(stack);
});

it('tells the waitlist function to store signups confirmed at once', () => {
  expect(resourceOf(template, logicalIdOf(stack.waitlist.handler)).Properties.Environment).toEqual({
    Variables: {
      TABLE_NAME: { Ref: logicalIdOf(stack.waitlist.table) },
      VISITOR_TABLE_NAME: { Ref: logicalIdOf(stack.waitlist.visitorTable) },
      CONFIRM_SIGNUPS: 'false',
      ORIGIN_VERIFY_SECRET: expect.anything(),
      SITE_ORIGINS: expect.anything(),
      NODE_OPTIONS: '--enable-source-maps',
    },
  });
});

it('routes POST /api/waitlist, the visit beacon and the leave link: no confirm routes, and no leave-link request, which needs the mailer', () => {
  const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
  expect(routes.map((route) => route.Properties.RouteKey).sort()).toEqual([
    'GET /api/leave',
    'HEAD /api/leave',
    'POST /api/leave',
    'POST /api/visit',
    'POST /api/waitlist',
  ]);
  expect(stack.leaveApi.leaveRequestHandler).toBeUndefined();
});

it('makes no mail resources: no stream, mailer, limit table, SES identity, configuration set, event rule, queue or mail alarm', () => {
  // The waitlist table, and the day's visitors'.
  const tables = Object.values(template.findResources('AWS::DynamoDB::Table')) as Resource[];
  expect(tables).toHaveLength(2);
  for (const table of tables) expect(table.Properties.StreamSpecification).toBeUndefined();
  expect(
    stack.confirmApi ?? stack.mailer ?? stack.mailQueues ?? stack.mailSender ?? stack.mailEvents,
  ).toBeUndefined();
  for (const type of [
    'AWS::Lambda::EventSourceMapping',
    'AWS::SES::EmailIdentity',
    'AWS::SES::ConfigurationSet',
    'AWS::SES::ConfigurationSetEventDestination',
    'AWS::Events::Rule',
    'AWS::SQS::Queue',
    'AWS::Route53::RecordSet',
  ])
    template.resourceCountIs(type, 0);
  for (const name of [
    'MailLate',
    'MailRefused',
    'MailStuck',
    'UnqueuedMail',
    'UnhandledMailEvent',
    'BounceRate',
    'ComplaintRate',
  ])
    expect(Object.keys(stack.operations.alarmsByName)).not.toContain(name);
  const outputs = Object.keys(template.findOutputs('*'));
  expect(outputs.sort()).toEqual([
    'AlarmTopicArn',
    'DashboardUrl',
    'SiteUrl',
    'TableName',
    'WaitlistEndpoint',
  ]);
});

it('deploys the waitlist and leave functions alone, with the CDK’s own upload handler beside them', () => {
  const functions = Object.keys(template.findResources('AWS::Lambda::Function'));
  expect(functions.filter((id) => !id.startsWith('CustomCDKBucketDeployment')).sort()).toEqual(
    [logicalIdOf(stack.waitlist.handler), logicalIdOf(stack.leaveApi.leaveHandler)].sort(),
  );
});
