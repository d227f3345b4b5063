import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT, readDeployedStack } from './deployed-stack';
import { roleChecker } from './role-check';

/**
 * What the services themselves must be allowed, read from the template and decided by the IAM simulator
 * (role-check.ts): CloudWatch publishing alarms to the operator's topic, API Gateway and EventBridge
 * invoking the functions, and Lambda reading each event source for its function. And what every bundle
 * carries: the SDK the tests ran.
 */

const stack = readDeployedStack();
const roles = roleChecker(stack);
const resources = stack.template.Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

describe('what AWS itself must be allowed', () => {
  it('lets CloudWatch publish every alarm to its topic', async () => {
    const topicPolicies = ofType('AWS::SNS::TopicPolicy').flatMap(([, policy]) =>
      ((policy.Properties?.Topics ?? []) as unknown[]).map((topic) => stack.resolve(topic)),
    );
    const refused = [];
    for (const [id, alarm] of ofType('AWS::CloudWatch::Alarm'))
      for (const action of (alarm.Properties?.AlarmActions as unknown[]) ?? []) {
        const topic = String(stack.resolve(action));
        // A topic with no policy of its own keeps SNS's default one, which lets the account's services publish.
        if (!topicPolicies.includes(topic)) continue;
        const decision = await roles.decide({
          principal: 'cloudwatch.amazonaws.com',
          action: 'sns:Publish',
          resource: topic,
          context: {
            'aws:SourceAccount': ACCOUNT,
            'aws:SourceArn': `arn:aws:cloudwatch:${stack.region}:${ACCOUNT}:alarm:${id}`,
          },
        });
        if (decision !== 'Allowed') refused.push(`${id} → ${topic}: ${decision}`);
      }
    expect(ofType('AWS::CloudWatch::Alarm').length).toBeGreaterThan(0);
    expect(refused).toEqual([]);
  });

  it('lets Lambda read every event source and reach its on-failure destination, as the function’s role', async () => {
    const refused = [];
    for (const mapping of stack.mappings) {
      const fn = stack.functions.get(mapping.functionId);
      if (!fn) throw new Error(`${mapping.id}: no function`);
      const source =
        mapping.kind === 'sqs'
          ? {
              arn: stack.queues.get(mapping.sourceId)?.arn,
              actions: [
                'sqs:ReceiveMessage',
                'sqs:DeleteMessage',
                'sqs:GetQueueAttributes',
                'sqs:ChangeMessageVisibility',
              ],
            }
          : {
              arn: `arn:aws:dynamodb:${stack.region}:${ACCOUNT}:table/${mapping.sourceId}/stream/2026-11-26T00:00:00.000`,
              actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
            };
      const calls = source.actions.map((action) => ({ action, resource: String(source.arn) }));
      // ListStreams names no stream: IAM knows it only on every resource.
      if (mapping.kind === 'stream') calls.push({ action: 'dynamodb:ListStreams', resource: '*' });
      if (mapping.onFailureQueueId)
        calls.push({
          action: 'sqs:SendMessage',
          resource: String(stack.queues.get(mapping.onFailureQueueId)?.arn),
        });
      for (const call of calls) {
        const decision = await roles.decide({ principal: fn.id, ...call });
        if (decision !== 'Allowed')
          refused.push(`${mapping.id}: ${call.action} on ${call.resource}: ${decision}`);
      }
    }
    expect(stack.mappings.length).toBeGreaterThan(0);
    expect(refused).toEqual([]);
  });

  it('lets API Gateway invoke each route’s function, and EventBridge each rule’s target', () => {
    const permissions = ofType('AWS::Lambda::Permission').map(
      ([, permission]) => stack.resolve(permission.Properties) as Record<string, string>,
    );
    const allowed = (principal: string, functionArn: string, sourceArn: string) =>
      permissions.some(
        (permission) =>
          permission.Principal === principal &&
          permission.FunctionName === functionArn &&
          new RegExp(
            `^${(permission.SourceArn ?? '').replace(/[.$]/g, '\\$&').replace(/\*/g, '[^/]*')}$`,
          ).test(sourceArn),
      );
    const missing = [];
    const apiId = stack.only('AWS::ApiGatewayV2::Api');
    for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
      const [method, path] = String(route.Properties?.RouteKey).split(' ');
      const integration = String(stack.resolve(route.Properties?.Target)).split('/').pop() ?? '';
      const functionArn = String(stack.resolve(resources[integration]?.Properties?.IntegrationUri));
      const sourceArn = `arn:aws:execute-api:${stack.region}:${ACCOUNT}:${apiId}/$default/${method}${path}`;
      if (!allowed('apigateway.amazonaws.com', functionArn, sourceArn)) missing.push(`${method} ${path}`);
    }
    for (const [id, rule] of ofType('AWS::Events::Rule'))
      for (const target of (rule.Properties?.Targets as { Arn: unknown }[]) ?? []) {
        const arn = String(stack.resolve(target.Arn));
        if (
          arn.includes(':function:') &&
          !allowed('events.amazonaws.com', arn, String(stack.resolve({ 'Fn::GetAtt': [id, 'Arn'] })))
        )
          missing.push(`${id} → ${arn}`);
      }
    expect(ofType('AWS::ApiGatewayV2::Route').length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});

describe('what every function ships', () => {
  it('bundles the AWS SDK the tests ran rather than importing the runtime’s copy', () => {
    const importing = [...stack.functions.values()].filter((fn) =>
      /(?:from|import\()\s*["']@aws-sdk\//.test(readFileSync(join(fn.dir, 'index.mjs'), 'utf8')),
    );
    expect(stack.functions.size).toBeGreaterThan(0);
    expect(importing.map((fn) => fn.id)).toEqual([]);
  });
});
