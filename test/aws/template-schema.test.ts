// Checks the synthesized templates in cdk.out offline against CloudFormation's resource schemas, as the
// CDK service specification in the aws-cdk CLI holds them: every resource type exists, every property set
// is one the type has (inside nested structures too), every required property is set. Values written as
// intrinsic functions are not looked into. The spec knows no enums, ranges, patterns or cross-property
// rules, so the ranges and rules that Lambda and SQS hold the app's settings to at deploy are written out
// (deployRuleProblems): a queue's visibility timeout below its consumer's timeout fails here, not at deploy.
// It also pins the stateful resources (stateful-resources.json): a deploy that would replace one, and so
// lose its data, fails here until it is recorded on purpose with UPDATE_STATEFUL=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CDK_OUT } from './deployed-stack';
import {
  checkTemplate,
  deployRuleProblems,
  loadResourceSpec,
  readTemplates,
  type StatefulResource,
  statefulChanges,
  statefulResources,
  type Template,
} from './resource-spec';

const RECORD = resolve(import.meta.dirname, 'stateful-resources.json');
const spec = loadResourceSpec();

describe('the schema check', () => {
  const problemsOf = (Resources: Template['Resources']) => checkTemplate('Test', { Resources }, spec);
  const table = (Properties: Record<string, unknown>) => ({ Type: 'AWS::DynamoDB::Table', Properties });

  it.each([
    ['an unknown property', table({ KeySchema: [], TableNme: 't' }), ': unknown property TableNme'],
    ['a missing required property', table({ TableName: 't' }), ': missing required property KeySchema'],
    ['an unknown resource type', { Type: 'AWS::DynamoDB::Tabel' }, ': unknown resource type'],
    [
      'an unknown property in a nested structure',
      table({ KeySchema: [], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S', Sort: 1 }] }),
      ' AttributeDefinitions[0]: unknown property Sort',
    ],
    [
      'a missing required property in a nested structure',
      { Type: 'AWS::S3::Bucket', Properties: { VersioningConfiguration: {} } },
      ' VersioningConfiguration: missing required property Status',
    ],
  ])('reports %s', (_, resource, problem) => {
    expect(problemsOf({ Res: resource })).toEqual([`Test Res (${resource.Type})${problem}`]);
  });

  it('leaves intrinsic functions and custom resources unchecked', () => {
    const versioning = { 'Fn::If': ['Keep', { Status: 'Enabled' }, { Ref: 'AWS::NoValue' }] };
    const problems = problemsOf({
      Bucket: { Type: 'AWS::S3::Bucket', Properties: { VersioningConfiguration: versioning } },
      Deployment: { Type: 'Custom::CDKBucketDeployment', Properties: { Anything: 1 } },
    });
    expect(problems).toEqual([]);
  });
});

describe('the deploy rules', () => {
  const mapping = (Properties: Record<string, unknown>) => ({
    Fn: { Type: 'AWS::Lambda::Function', Properties: { Timeout: 60 } },
    Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 360 } },
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        FunctionName: { Ref: 'Fn' },
        EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] },
        ...Properties,
      },
    },
  });
  const problemsOf = (Resources: Template['Resources']) => deployRuleProblems('Test', { Resources });

  it.each([
    [
      'a queue hidden for less than its consumer runs',
      { ...mapping({}), Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } },
      "Mapping (AWS::Lambda::EventSourceMapping): the queue's visibility timeout (30 s) is less than the function's timeout (60 s)",
    ],
    [
      'over ten messages a batch with no batching window',
      mapping({ BatchSize: 100 }),
      'Mapping (AWS::Lambda::EventSourceMapping): a BatchSize over 10 needs MaximumBatchingWindowInSeconds of 1 at least',
    ],
    [
      'a stream setting on a queue',
      mapping({ StartingPosition: 'LATEST' }),
      'Mapping (AWS::Lambda::EventSourceMapping): StartingPosition is for streams, not a queue',
    ],
    [
      'a value out of its range',
      { ...mapping({}), Fn: { Type: 'AWS::Lambda::Function', Properties: { Timeout: 60, MemorySize: 64 } } },
      'Fn (AWS::Lambda::Function): MemorySize 64 is outside 128 to 10240',
    ],
  ])('reports %s', (_, resources, problem) => {
    expect(problemsOf(resources)).toEqual([`Test ${problem}`]);
  });

  it('passes a queue hidden longer than its consumer runs', () => {
    expect(problemsOf(mapping({ BatchSize: 10 }))).toEqual([]);
  });
});

describe('the synthesized templates', () => {
  const templates = readTemplates(CDK_OUT);

  it('include every stack of the app', () => {
    expect([...templates.keys()]).toEqual(expect.arrayContaining(['Mandje', 'MandjeEdge']));
  });

  it('use only resource types and properties CloudFormation has, with every required property', () => {
    const problems = [...templates].flatMap(([stack, template]) => checkTemplate(stack, template, spec));
    expect(problems, `CloudFormation would refuse:\n${problems.join('\n')}`).toEqual([]);
  });

  it('keep the rules Lambda and SQS hold their settings to at deploy', () => {
    const problems = [...templates].flatMap(([stack, template]) => deployRuleProblems(stack, template));
    expect(problems, `The deploy would fail:\n${problems.join('\n')}`).toEqual([]);
  });

  it('deploy without replacing a stateful resource, which would lose its data', () => {
    const current = statefulResources(templates, spec);
    if (process.env.UPDATE_STATEFUL === '1') writeFileSync(RECORD, `${JSON.stringify(current, null, 2)}\n`);
    const recorded: StatefulResource[] = JSON.parse(readFileSync(RECORD, 'utf8'));
    const changes = statefulChanges(recorded, current);
    expect(
      changes,
      `${changes.join('\n')}\nA replaced resource starts empty. If that is intended, record the new state with ` +
        '`UPDATE_STATEFUL=1 npm run test:aws` (it rewrites test/aws/stateful-resources.json) and commit it.',
    ).toEqual([]);
  });
});

describe('the stateful check', () => {
  const table = (logicalId: string, keys: string[]): StatefulResource => ({
    stack: 'Test',
    logicalId,
    type: 'AWS::DynamoDB::Table',
    replacingProperties: { KeySchema: keys.map((AttributeName) => ({ AttributeName })) },
  });

  it('reports a stateful resource that is gone or has a new logical id', () => {
    expect(statefulChanges([table('Signups', ['pk'])], [table('Signups2', ['pk'])])).toEqual([
      'Test Signups (AWS::DynamoDB::Table) is gone or has a new logical id: the deploy would delete or replace it',
      'Test Signups2 (AWS::DynamoDB::Table) is new and not recorded yet',
    ]);
  });

  it('reports a change to a property that replaces the resource', () => {
    expect(statefulChanges([table('Signups', ['pk'])], [table('Signups', ['email'])])).toEqual([
      'Test Signups (AWS::DynamoDB::Table) KeySchema changes from [{"AttributeName":"pk"}] to ' +
        '[{"AttributeName":"email"}]: the deploy would replace it',
    ]);
  });
});
