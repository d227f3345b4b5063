/**
 * Leaving the waitlist on AWS: the leave link's routes and the privacy form's, each function's role
 * written out to the one table and the actions it needs, and the guard's settings in their environment.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { Template as Templates } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { MAILBOX_INDEX, TOKEN_INDEX } from '#contract/waitlist-table';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let leave: LambdaFunction;
let leaveRequest: LambdaFunction;

beforeAll(() => {
  stack = synthStack();
  template = Templates.fromStack(stack);
  leave = stack.leaveApi.leaveHandler;
  leaveRequest = present(stack.leaveApi.leaveRequestHandler, 'leave-request handler');
});

const tableId = () => logicalIdOf(stack.waitlist.table);
const tableArn = () => ({ 'Fn::GetAtt': [tableId(), 'Arn'] });
const roleOf = (handler: LambdaFunction) => logicalIdOf(present(handler.role, 'role'));
const logStreamsOf = (handler: LambdaFunction) => ({
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(handler.logGroup), 'Arn'] }, ':*']] },
});

/** The routes of `path`, each with the function its integration invokes. */
function routesTo(path: string): { key: string; target: unknown }[] {
  const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
  return routes
    .filter((route) => String(route.Properties.RouteKey).endsWith(` ${path}`))
    .map((route) => {
      const integrationId = (route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })[
        'Fn::Join'
      ][1][1].Ref;
      return {
        key: String(route.Properties.RouteKey),
        target: resourceOf(template, integrationId).Properties.IntegrationUri,
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

describe('the leave link', () => {
  it('routes GET, HEAD and POST /api/leave to the leave function', () => {
    const target = { 'Fn::GetAtt': [logicalIdOf(leave), 'Arn'] };
    expect(routesTo(LEAVE_PATH)).toEqual([
      { key: `GET ${LEAVE_PATH}`, target },
      { key: `HEAD ${LEAVE_PATH}`, target },
      { key: `POST ${LEAVE_PATH}`, target },
    ]);
  });

  it('may query the token and mailbox indexes (not the table), read and delete records and count the person, and write its own logs, and nothing else', () => {
    expect(statementsOf(template, roleOf(leave))).toEqual([
      logStreamsOf(leave),
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: [
          { 'Fn::Join': ['', [tableArn(), `/index/${TOKEN_INDEX.name}`]] },
          { 'Fn::Join': ['', [tableArn(), `/index/${MAILBOX_INDEX.name}`]] },
        ],
      },
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem'],
        Resource: tableArn(),
      },
    ]);
    expect(resourceOf(template, roleOf(leave)).Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('is told the table, and the origin secret and site origins the request guard checks', () => {
    expect(resourceOf(template, logicalIdOf(leave)).Properties.Environment).toEqual({
      Variables: {
        TABLE_NAME: { Ref: tableId() },
        ORIGIN_VERIFY_SECRET: expect.anything(),
        SITE_ORIGINS: expect.anything(),
        NODE_OPTIONS: '--enable-source-maps',
      },
    });
  });
});

describe('the privacy page’s leave form', () => {
  it('routes POST /api/leave-request, and nothing else, to the leave-request function', () => {
    expect(routesTo(LEAVE_REQUEST_PATH)).toEqual([
      { key: `POST ${LEAVE_REQUEST_PATH}`, target: { 'Fn::GetAtt': [logicalIdOf(leaveRequest), 'Arn'] } },
    ]);
  });

  it('may read and update an item of the table and write its own logs, and nothing else', () => {
    expect(statementsOf(template, roleOf(leaveRequest))).toEqual([
      logStreamsOf(leaveRequest),
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: tableArn() },
    ]);
    expect(resourceOf(template, roleOf(leaveRequest)).Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('is told the table, and the origin secret and site origins the request guard checks', () => {
    const { Variables } = resourceOf(template, logicalIdOf(leaveRequest)).Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    const waitlist = resourceOf(template, logicalIdOf(stack.waitlist.handler)).Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    expect(Variables).toEqual({
      TABLE_NAME: { Ref: tableId() },
      ORIGIN_VERIFY_SECRET: waitlist.Variables.ORIGIN_VERIFY_SECRET,
      SITE_ORIGINS: waitlist.Variables.SITE_ORIGINS,
      NODE_OPTIONS: '--enable-source-maps',
    });
  });
});
