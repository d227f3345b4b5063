// What a deploy of the templates in cdk.out would refuse or lose, found offline. The ranges and rules Lambda
// and SQS hold the app's settings to at deploy are written out here: a queue's visibility timeout below its
// consumer's timeout fails here, not at deploy. And the stateful resources (stateful-resources.json): a deploy
// that would replace one, and so lose its data, fails until it is recorded on purpose with UPDATE_STATEFUL=1.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { CDK_OUT } from './deployed-stack';

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;
const templates = new Map(
  readdirSync(CDK_OUT)
    .filter((file) => file.endsWith('.template.json'))
    .map((file) => [
      file.replace('.template.json', ''),
      JSON.parse(readFileSync(join(CDK_OUT, file), 'utf8')),
    ]),
) as Map<string, { Resources: Resources }>;

const idOf = (value: unknown) => {
  const json = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] } | undefined;
  return json?.Ref ?? json?.['Fn::GetAtt']?.[0] ?? '';
};
const STREAM_ONLY = [
  'StartingPosition',
  'ParallelizationFactor',
  'BisectBatchOnFunctionError',
  'DestinationConfig',
];

/** What CloudFormation, Lambda and SQS refuse at deploy that the schemas do not say, one line each. */
function deployRuleProblems(stack: string, Resources: Resources): string[] {
  const problems: string[] = [];
  const within = (where: string, name: string, value: unknown, low: number, high: number) => {
    if (typeof value === 'number' && (value < low || value > high))
      problems.push(`${where}: ${name} ${value} is outside ${low} to ${high}`);
  };
  for (const [logicalId, { Type, Properties: p = {} }] of Object.entries(Resources)) {
    const where = `${stack} ${logicalId} (${Type})`;
    if (Type === 'AWS::Lambda::Function') {
      within(where, 'Timeout', p.Timeout, 1, 900);
      within(where, 'MemorySize', p.MemorySize, 128, 10_240);
    }
    if (Type === 'AWS::SQS::Queue') {
      within(where, 'VisibilityTimeout', p.VisibilityTimeout, 0, 43_200);
      within(where, 'MessageRetentionPeriod', p.MessageRetentionPeriod, 60, 1_209_600);
    }
    if (Type !== 'AWS::Lambda::EventSourceMapping') continue;
    const source = Resources[idOf(p.EventSourceArn)];
    within(where, 'BatchSize', p.BatchSize, 1, 10_000);
    within(where, 'MaximumBatchingWindowInSeconds', p.MaximumBatchingWindowInSeconds, 0, 300);
    if (source?.Type === 'AWS::SQS::Queue') {
      const visibility = Number(source.Properties?.VisibilityTimeout ?? 30);
      const timeout = Number(Resources[idOf(p.FunctionName)]?.Properties?.Timeout ?? 3);
      if (visibility < timeout)
        problems.push(
          `${where}: the queue's visibility timeout (${visibility} s) is less than the function's (${timeout} s)`,
        );
      if (Number(p.BatchSize ?? 10) > 10 && !Number(p.MaximumBatchingWindowInSeconds))
        problems.push(`${where}: a BatchSize over 10 needs MaximumBatchingWindowInSeconds of 1 at least`);
      within(
        where,
        'MaximumConcurrency',
        (p.ScalingConfig as { MaximumConcurrency?: number })?.MaximumConcurrency,
        2,
        1_000,
      );
      for (const name of STREAM_ONLY.filter((name) => name in p))
        problems.push(`${where}: ${name} is for streams`);
    } else {
      if (!p.StartingPosition) problems.push(`${where}: a stream needs a StartingPosition`);
      within(where, 'ParallelizationFactor', p.ParallelizationFactor, 1, 10);
      within(where, 'MaximumRetryAttempts', p.MaximumRetryAttempts, -1, 10_000);
      within(
        where,
        'MaximumRecordAgeInSeconds',
        p.MaximumRecordAgeInSeconds === -1 ? 60 : p.MaximumRecordAgeInSeconds,
        60,
        604_800,
      );
    }
  }
  return problems;
}

it('keeps the rules Lambda and SQS hold the settings to at deploy', () => {
  const problems = [...templates].flatMap(([stack, { Resources }]) => deployRuleProblems(stack, Resources));
  expect(problems, `The deploy would fail:\n${problems.join('\n')}`).toEqual([]);
  // Really checking: a queue hidden for less than its consumer runs is refused.
  const broken = {
    Fn: { Type: 'AWS::Lambda::Function', Properties: { Timeout: 60 } },
    Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } },
    Map: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: { FunctionName: { Ref: 'Fn' }, EventSourceArn: { Ref: 'Queue' } },
    },
  };
  expect(deployRuleProblems('T', broken)).toEqual([
    "T Map (AWS::Lambda::EventSourceMapping): the queue's visibility timeout (30 s) is less than the function's (60 s)",
  ]);
});

// The CDK service specification in the aws-cdk CLI (db.json.gz): which types are stateful, and which of their
// properties replace the resource when changed. A mail identity is stateful too: replaced, it loses its DKIM keys.
type Spec = { properties: Record<string, { causesReplacement?: string }>; isStateful?: boolean };
const cli = dirname(createRequire(import.meta.url).resolve('aws-cdk/package.json'));
const db = JSON.parse(gunzipSync(readFileSync(join(cli, 'db.json.gz'))).toString());
const specs = new Map<string, Spec>(
  db.schema.resource.entities.map((r: Spec & { cloudFormationType: string }) => [r.cloudFormationType, r]),
);

// The schemas: every resource type exists, every property set is one its type has (nested ones too), every
// required property is set. Values written as intrinsic functions, and custom resources, are not looked into.
type SpecProperty = { type: { type: string; element?: SpecProperty['type']; reference?: { $ref: string } } };
type Bag = { properties: Record<string, SpecProperty & { required?: boolean }> };
const definitions = new Map<string, Bag>(
  db.schema.typeDefinition.entities.map((t: Bag & { $id: string }) => [t.$id, t]),
);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isIntrinsic = (v: unknown) => isObject(v) && /^(Ref|Fn::\w+)$/.test(Object.keys(v).join());

function schemaProblems(stack: string, Resources: Resources): string[] {
  const problems: string[] = [];
  const check = (where: string, value: Record<string, unknown>, bag: Bag) => {
    for (const [name, v] of Object.entries(value)) {
      const property = bag.properties[name];
      if (!property) {
        problems.push(`${where}: unknown property ${name}`);
        continue;
      }
      const held = ['array', 'map'].includes(property.type.type) ? property.type.element : property.type;
      const nested = held?.reference && definitions.get(held.reference.$ref);
      if (!nested || !isObject(v)) continue;
      const items = property.type.type === 'ref' ? { '': v } : v;
      for (const [key, item] of Object.entries(items))
        if (isObject(item) && !isIntrinsic(item)) check(`${where} ${name}${key && `[${key}]`}`, item, nested);
    }
    for (const [name, { required }] of Object.entries(bag.properties))
      if (required && !(name in value)) problems.push(`${where}: missing required property ${name}`);
  };
  for (const [logicalId, { Type, Properties = {} }] of Object.entries(Resources)) {
    if (/^(Custom::|AWS::CDK::Metadata$|AWS::CloudFormation::CustomResource$)/.test(Type)) continue;
    const spec = specs.get(Type) as (Spec & Bag) | undefined;
    if (!spec) problems.push(`${stack} ${logicalId} (${Type}): unknown resource type`);
    else if (!isIntrinsic(Properties)) check(`${stack} ${logicalId} (${Type})`, Properties, spec);
  }
  return problems;
}

it('uses only resource types and properties CloudFormation has, with every required property', () => {
  const problems = [...templates].flatMap(([stack, { Resources }]) => schemaProblems(stack, Resources));
  expect(problems, problems.join('\n')).toEqual([]);
  // Really checking: a misspelt property, also nested, and a missing required one are each reported.
  const table = { KeySchema: [], TableNme: 't', AttributeDefinitions: [{ AttributeName: 'pk', Sort: 1 }] };
  expect(schemaProblems('T', { Table: { Type: 'AWS::DynamoDB::Table', Properties: table } })).toEqual([
    'T Table (AWS::DynamoDB::Table): unknown property TableNme',
    'T Table (AWS::DynamoDB::Table) AttributeDefinitions[0]: unknown property Sort',
    'T Table (AWS::DynamoDB::Table) AttributeDefinitions[0]: missing required property AttributeType',
  ]);
});

type Stateful = {
  stack: string;
  logicalId: string;
  type: string;
  replacingProperties: Record<string, unknown>;
};
const stateful: Stateful[] = [...templates].flatMap(([stack, { Resources }]) =>
  Object.entries(Resources).flatMap(([logicalId, { Type: type, Properties = {} }]) => {
    const spec = specs.get(type);
    if (!spec || !(spec.isStateful || type === 'AWS::SES::EmailIdentity')) return [];
    const replacing = Object.entries(Properties).filter(([name]) =>
      ['yes', 'maybe'].includes(spec.properties[name]?.causesReplacement ?? 'no'),
    );
    const masked = JSON.stringify(Object.fromEntries(replacing)).replace(/[0-9a-f]{64}/g, '<asset-hash>');
    return [{ stack, logicalId, type, replacingProperties: JSON.parse(masked) }];
  }),
);

it('deploys without replacing a stateful resource, which would lose its data', () => {
  const record = resolve(import.meta.dirname, 'stateful-resources.json');
  if (process.env.UPDATE_STATEFUL === '1') writeFileSync(record, `${JSON.stringify(stateful, null, 2)}\n`);
  const recorded: Stateful[] = JSON.parse(readFileSync(record, 'utf8'));
  expect(
    stateful,
    'A replaced resource starts empty. If that is intended, record the new state with ' +
      '`UPDATE_STATEFUL=1 npm run test:aws` (it rewrites test/aws/stateful-resources.json) and commit it.',
  ).toEqual(recorded);
});
