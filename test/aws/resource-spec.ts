import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

// The CDK service specification shipped in the aws-cdk CLI (db.json.gz) is a serialized database:
// `schema.resource.entities` are the resource types, `schema.typeDefinition.entities` the nested property
// types, which a property's type points at with `{ $ref: <$id> }`.
interface SpecType {
  type: string; // string, number, integer, boolean, json, tag, ref, array, map or union
  element?: SpecType;
  reference?: { $ref: string };
}
type SpecProperty = { type: SpecType; required?: boolean; causesReplacement?: 'yes' | 'maybe' | 'no' };
type PropertyBag = { properties: Record<string, SpecProperty> };
type SpecResource = PropertyBag & { isStateful?: boolean };
interface SpecDatabase {
  schema: {
    resource: { entities: (SpecResource & { cloudFormationType: string })[] };
    typeDefinition: { entities: (PropertyBag & { $id: string })[] };
  };
}

export interface ResourceSpec {
  resources: Map<string, SpecResource>;
  /** The property type a property holds, itself or as array or map elements; unions are not followed. */
  nestedType(property: SpecProperty): PropertyBag | undefined;
}

export function loadResourceSpec(): ResourceSpec {
  const cli = dirname(createRequire(import.meta.url).resolve('aws-cdk/package.json'));
  const db: SpecDatabase = JSON.parse(gunzipSync(readFileSync(join(cli, 'db.json.gz'))).toString());
  const definitions = new Map(db.schema.typeDefinition.entities.map((t) => [t.$id, t]));
  return {
    resources: new Map(db.schema.resource.entities.map((r) => [r.cloudFormationType, r])),
    nestedType({ type }) {
      const held = type.type === 'array' || type.type === 'map' ? type.element : type;
      return held?.reference && definitions.get(held.reference.$ref);
    },
  };
}

export interface Template {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** Every `*.template.json` under cdk.out (nested assemblies too), keyed by its path without the suffix. */
export function readTemplates(cdkOut: string): Map<string, Template> {
  const files = readdirSync(cdkOut, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.template.json'),
  );
  const read = (f: string) => JSON.parse(readFileSync(join(cdkOut, f), 'utf8'));
  return new Map(files.map((f) => [f.replace(/\.template\.json$/, ''), read(f)]));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isIntrinsic = (v: unknown) => isObject(v) && /^(Ref|Fn::\w+)$/.test(Object.keys(v).join());
// Custom resources take whatever properties their provider reads.
const isFreeForm = (type: string) =>
  /^(Custom::|AWS::CDK::Metadata$|AWS::CloudFormation::CustomResource$)/.test(type);

/** Unknown resource types and unknown or missing properties (nested ones too), one line each. */
export function checkTemplate(stack: string, template: Template, spec: ResourceSpec): string[] {
  const problems: string[] = [];
  const checkProperties = (where: string, value: Record<string, unknown>, bag: PropertyBag) => {
    for (const [name, v] of Object.entries(value)) {
      const property = bag.properties[name];
      if (!property) problems.push(`${where}: unknown property ${name}`);
      const nested = property && spec.nestedType(property);
      if (!nested) continue;
      const items = property.type.type === 'ref' ? { '': v } : Array.isArray(v) || isObject(v) ? v : {};
      for (const [key, item] of Object.entries(items)) {
        const path = `${where} ${name}${property.type.type === 'array' ? `[${key}]` : key && `.${key}`}`;
        if (isObject(item) && !isIntrinsic(item)) checkProperties(path, item, nested);
      }
    }
    for (const [name, property] of Object.entries(bag.properties)) {
      if (property.required && !(name in value)) problems.push(`${where}: missing required property ${name}`);
    }
  };
  for (const [logicalId, { Type, Properties = {} }] of Object.entries(template.Resources)) {
    const resource = spec.resources.get(Type);
    if (isFreeForm(Type) || isIntrinsic(Properties)) continue;
    if (resource) checkProperties(`${stack} ${logicalId} (${Type})`, Properties, resource);
    else problems.push(`${stack} ${logicalId} (${Type}): unknown resource type`);
  }
  return problems;
}

// Stateful: what the spec marks so (tables, buckets, queues, log groups, secrets, keys…), and a mail
// identity, whose replacement drops its verification and DKIM keys: no mail until DNS is done again.
const STATEFUL_BEYOND_SPEC = new Set(['AWS::SES::EmailIdentity']);

export interface StatefulResource {
  stack: string;
  logicalId: string;
  type: string;
  replacingProperties: Record<string, unknown>;
}

/** Stateful resources, with the values of the properties whose change replaces them (asset hashes masked). */
export function statefulResources(templates: Map<string, Template>, spec: ResourceSpec): StatefulResource[] {
  return [...templates].flatMap(([stack, { Resources }]) =>
    Object.entries(Resources).flatMap(([logicalId, { Type: type, Properties = {} }]) => {
      const resource = spec.resources.get(type);
      if (!resource || !(resource.isStateful || STATEFUL_BEYOND_SPEC.has(type))) return [];
      const replacing = Object.entries(Properties).filter(([name]) =>
        ['yes', 'maybe'].includes(resource.properties[name]?.causesReplacement ?? 'no'),
      );
      const masked = JSON.stringify(Object.fromEntries(replacing)).replace(/[0-9a-f]{64}/g, '<asset-hash>');
      return [{ stack, logicalId, type, replacingProperties: JSON.parse(masked) }];
    }),
  );
}

/** What deploying `current` over `recorded` would do to the stateful resources, one line each. */
export function statefulChanges(recorded: StatefulResource[], current: StatefulResource[]): string[] {
  const name = (r: StatefulResource) => `${r.stack} ${r.logicalId} (${r.type})`;
  const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v));
  const now = new Map(current.map((r) => [`${r.stack}/${r.logicalId}`, r]));
  const changes = recorded.flatMap((old) => {
    const r = now.get(`${old.stack}/${old.logicalId}`);
    now.delete(`${old.stack}/${old.logicalId}`);
    if (!r) return [`${name(old)} is gone or has a new logical id: the deploy would delete or replace it`];
    if (r.type !== old.type) return [`${name(old)} becomes ${r.type}: the deploy would replace it`];
    const before = old.replacingProperties;
    const after = r.replacingProperties;
    return Object.keys({ ...before, ...after })
      .filter((p) => show(before[p]) !== show(after[p]))
      .map(
        (p) =>
          `${name(r)} ${p} changes from ${show(before[p])} to ${show(after[p])}: the deploy would replace it`,
      );
  });
  return [...changes, ...[...now.values()].map((r) => `${name(r)} is new and not recorded yet`)];
}

const idOf = (value: unknown) => {
  const json = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] } | undefined;
  return json?.Ref ?? json?.['Fn::GetAtt']?.[0];
};
const STREAM_ONLY = [
  'StartingPosition',
  'ParallelizationFactor',
  'BisectBatchOnFunctionError',
  'MaximumRetryAttempts',
  'MaximumRecordAgeInSeconds',
  'DestinationConfig',
];

/**
 * What CloudFormation, Lambda and SQS refuse at deploy that the schemas do not say: the ranges of the
 * properties this app sets, and Lambda's rules for event source mappings (an SQS queue's visibility timeout
 * at least its consumer's timeout; more than ten messages only with a batching window; the stream settings
 * on streams only). Values written as intrinsic functions are not looked into. One line each.
 */
export function deployRuleProblems(stack: string, { Resources }: Template): string[] {
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
      within(where, 'DelaySeconds', p.DelaySeconds, 0, 900);
    }
    if (Type !== 'AWS::Lambda::EventSourceMapping') continue;
    const source = Resources[idOf(p.EventSourceArn) ?? ''];
    const consumer = Resources[idOf(p.FunctionName) ?? ''];
    within(where, 'BatchSize', p.BatchSize, 1, 10_000);
    within(where, 'MaximumBatchingWindowInSeconds', p.MaximumBatchingWindowInSeconds, 0, 300);
    if (source?.Type === 'AWS::SQS::Queue') {
      const visibility = source.Properties?.VisibilityTimeout ?? 30;
      const timeout = consumer?.Properties?.Timeout ?? 3;
      if (typeof visibility === 'number' && typeof timeout === 'number' && visibility < timeout)
        problems.push(
          `${where}: the queue's visibility timeout (${visibility} s) is less than the function's timeout (${timeout} s)`,
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
        problems.push(`${where}: ${name} is for streams, not a queue`);
    } else {
      if (!p.StartingPosition) problems.push(`${where}: a stream needs a StartingPosition`);
      within(where, 'ParallelizationFactor', p.ParallelizationFactor, 1, 10);
      within(where, 'MaximumRetryAttempts', p.MaximumRetryAttempts, -1, 10_000);
      const age = p.MaximumRecordAgeInSeconds;
      if (typeof age === 'number' && age !== -1) within(where, 'MaximumRecordAgeInSeconds', age, 60, 604_800);
    }
  }
  return problems;
}
