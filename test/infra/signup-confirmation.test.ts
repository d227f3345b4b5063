import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_PATH } from '#contract/confirmation';
import { TOKEN_INDEX } from '#contract/waitlist-table';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: { table: string; confirm: string; confirmRole: string };

const tableArn = () => ({ 'Fn::GetAtt': [ids.table, 'Arn'] });
const logStreamsOf = (logGroup: string) => ({
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logGroup, 'Arn'] }, ':*']] },
});

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  const confirm = stack.confirmApi.handler;
  ids = {
    table: logicalIdOf(stack.waitlist.table),
    confirm: logicalIdOf(confirm),
    confirmRole: logicalIdOf(present(confirm.role, 'confirm role')),
  };
});

describe('the confirm API', () => {
  it('routes GET and POST /api/confirm to the confirm function', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    const confirmRoutes = routes.filter((route) => String(route.Properties.RouteKey).endsWith(CONFIRM_PATH));
    expect(confirmRoutes.map((route) => route.Properties.RouteKey).sort()).toEqual([
      `GET ${CONFIRM_PATH}`,
      `POST ${CONFIRM_PATH}`,
    ]);
    for (const route of confirmRoutes) {
      const integrationId = (route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })[
        'Fn::Join'
      ][1][1].Ref;
      expect(resourceOf(template, integrationId).Properties.IntegrationUri).toEqual({
        'Fn::GetAtt': [ids.confirm, 'Arn'],
      });
    }
  });

  it('runs with the table name in its environment', () => {
    expect(resourceOf(template, ids.confirm).Properties.Environment).toEqual({
      Variables: { TABLE_NAME: { Ref: ids.table } },
    });
  });

  it('may query the token index, update records and write its own logs, and nothing else', () => {
    const statements = statementsOf(template, ids.confirmRole);
    const confirmLogs = logicalIdOf(stack.confirmApi.handler.logGroup);
    expect(statements).toEqual([
      logStreamsOf(confirmLogs),
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.table, 'Arn'] }, `/index/${TOKEN_INDEX.name}`]] },
      },
      { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: tableArn() },
    ]);
    expect(resourceOf(template, ids.confirmRole).Properties.ManagedPolicyArns).toBeUndefined();
  });
});
