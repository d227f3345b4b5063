import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The Mandje stack as `cdk synth` wrote it to cdk.out/, read as CloudFormation would create it: each
 * function with its bundle folder, timeout and environment, each queue and table, each event source
 * mapping, each role's policies, with every reference resolved to the names the emulators use here. A
 * physical name is the resource's logical id; the region and account are the template's own.
 */

export const CDK_OUT = resolve(import.meta.dirname, '../../cdk.out');
export const ACCOUNT = '000000000000';
/** What CloudFront adds as the origin secret; the template reads it from Secrets Manager. */
export const ORIGIN_SECRET = 'origin-secret-for-the-production-path';
export const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
}
export interface PolicyDocument {
  Version?: string;
  Statement: Record<string, unknown>[];
}

export interface DeployedFunction {
  id: string;
  /** The folder `cdk synth` copied the bundle to: cdk.out/asset.<hash>/, index.mjs in it. */
  dir: string;
  timeoutSeconds: number;
  reservedConcurrency?: number;
  environment: Record<string, string>;
  roleId: string;
}

export interface DeployedQueue {
  id: string;
  url: string;
  arn: string;
  attributes: Record<string, string>;
}

export interface DeployedTable {
  id: string;
  arn: string;
  properties: Record<string, Json>;
}

export interface EventSourceMapping {
  id: string;
  functionId: string;
  /** The queue's or the table's logical id. */
  sourceId: string;
  kind: 'sqs' | 'stream';
  batchSize: number;
  batchingWindowSeconds: number;
  reportsItemFailures: boolean;
  maxConcurrency: number;
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  parallelizationFactor: number;
  maxRetries?: number;
  /** A stream record's maximum age in seconds: older, a failing record is given up. */
  maxRecordAgeSeconds?: number;
  /** Lambda's event filter patterns, parsed; a record passes when any matches. */
  filters: unknown[];
  onFailureQueueId?: string;
}

/** An EventBridge rule on the default bus: its pattern, resolved, and the functions it invokes. */
export interface EventRule {
  id: string;
  pattern: unknown;
  functionIds: string[];
}

export interface DeployedStack {
  region: string;
  template: { Resources: Record<string, Resource>; Outputs?: Record<string, { Value: Json }> };
  functions: Map<string, DeployedFunction>;
  queues: Map<string, DeployedQueue>;
  tables: Map<string, DeployedTable>;
  mappings: EventSourceMapping[];
  rules: EventRule[];
  /** Each role's inline policies, resolved. */
  rolePolicies: Map<string, PolicyDocument[]>;
  /** Resolves a template value to what CloudFormation would put there. */
  resolve(value: unknown): unknown;
  /** The one resource of `type` (fails when there is not exactly one). */
  only(type: string, idPrefix?: string): string;
}

const arnOf = (region: string, service: string, resource: string) =>
  `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;

export function readDeployedStack(stackName = 'Mandje'): DeployedStack {
  const manifest = JSON.parse(readFileSync(join(CDK_OUT, 'manifest.json'), 'utf8'));
  const region = String(manifest.artifacts[stackName].environment).split('/').pop() ?? 'eu-west-1';
  const template = JSON.parse(readFileSync(join(CDK_OUT, `${stackName}.template.json`), 'utf8'));
  const resources: Record<string, Resource> = template.Resources;
  const typeOf = (id: string) => resources[id]?.Type;

  const ref = (id: string): string => {
    switch (typeOf(id)) {
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.amazonaws.com/${ACCOUNT}/${id}`;
      case 'AWS::SNS::Topic':
        return arnOf(region, 'sns', id);
      case 'AWS::SES::EmailIdentity':
        return String(resources[id]?.Properties?.EmailIdentity);
      case undefined:
        throw new Error(`Ref to ${id}, which the template does not hold`);
      default:
        return id;
    }
  };
  const getAtt = (id: string, attribute: string): string => {
    const type = typeOf(id);
    if (attribute === 'Arn' && type === 'AWS::SQS::Queue') return arnOf(region, 'sqs', id);
    if (attribute === 'QueueName') return id;
    if (attribute === 'Arn' && type === 'AWS::DynamoDB::Table')
      return arnOf(region, 'dynamodb', `table/${id}`);
    if (attribute === 'StreamArn') return arnOf(region, 'dynamodb', `table/${id}/stream/*`);
    if (attribute === 'Arn' && type === 'AWS::Logs::LogGroup')
      return arnOf(region, 'logs', `log-group:${id}`);
    if (attribute === 'Arn' && type === 'AWS::Lambda::Function')
      return arnOf(region, 'lambda', `function:${id}`);
    if (attribute === 'Arn' && type === 'AWS::Events::Rule') return arnOf(region, 'events', `rule/${id}`);
    if (attribute === 'Arn' && type === 'AWS::IAM::Role') return `arn:aws:iam::${ACCOUNT}:role/${id}`;
    if (attribute === 'DomainName') return DISTRIBUTION_DOMAIN;
    if (attribute === 'ApiEndpoint') return `https://${id}.execute-api.${region}.amazonaws.com`;
    return `${id}.${attribute}`;
  };
  const pseudo: Record<string, string> = {
    'AWS::Region': region,
    'AWS::AccountId': ACCOUNT,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackName,
  };
  // A dynamic reference to a secret is resolved by CloudFormation at deploy time: here, to the test's one.
  const secrets = (text: string) => text.replace(/\{\{resolve:secretsmanager:[^}]*\}\}/g, ORIGIN_SECRET);
  const resolveValue = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolveValue);
    if (typeof value === 'string') return secrets(value);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value);
    const [key, argument] = entries[0] ?? [];
    if (entries.length === 1 && key === 'Ref') return pseudo[argument as string] ?? ref(argument as string);
    if (entries.length === 1 && key === 'Fn::GetAtt') {
      const [id, attribute] = argument as [string, string];
      return getAtt(id, attribute);
    }
    if (entries.length === 1 && key === 'Fn::Join') {
      const [separator, parts] = argument as [string, unknown[]];
      return secrets((resolveValue(parts) as unknown[]).join(separator));
    }
    if (entries.length === 1 && key === 'Fn::Sub')
      return String(argument).replace(/\$\{([^}]+)\}/g, (_, name: string) =>
        String(pseudo[name] ?? resolveValue({ Ref: name })),
      );
    if (entries.length === 1 && key === 'Fn::Select') {
      const [index, list] = argument as [number, unknown];
      return (resolveValue(list) as unknown[])[index];
    }
    if (entries.length === 1 && key === 'Fn::Split') {
      const [separator, text] = argument as [string, unknown];
      return String(resolveValue(text)).split(separator);
    }
    return Object.fromEntries(entries.map(([name, inner]) => [name, resolveValue(inner)]));
  };

  const idOf = (value: unknown): string => {
    const json = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    const id = json.Ref ?? json['Fn::GetAtt']?.[0];
    if (!id) throw new Error(`not a reference: ${JSON.stringify(value)}`);
    return id;
  };

  const functions = new Map<string, DeployedFunction>();
  const queues = new Map<string, DeployedQueue>();
  const tables = new Map<string, DeployedTable>();
  const mappings: EventSourceMapping[] = [];
  const rules: EventRule[] = [];
  const rolePolicies = new Map<string, PolicyDocument[]>();

  for (const [id, resource] of Object.entries(resources)) {
    const properties = resource.Properties ?? {};
    switch (resource.Type) {
      case 'AWS::Lambda::Function': {
        const key = String((properties.Code as { S3Key?: string }).S3Key ?? '');
        const dir = join(CDK_OUT, `asset.${key.replace(/\.zip$/, '')}`);
        // Ours only: a function whose asset is a bundle index.mjs (not CDK's own deployment helper).
        if (!existsSync(join(dir, 'index.mjs'))) break;
        const variables = (properties.Environment as { Variables?: Record<string, Json> })?.Variables ?? {};
        functions.set(id, {
          id,
          dir,
          timeoutSeconds: Number(properties.Timeout ?? 3),
          ...(properties.ReservedConcurrentExecutions !== undefined
            ? { reservedConcurrency: Number(properties.ReservedConcurrentExecutions) }
            : {}),
          environment: resolveValue(variables) as Record<string, string>,
          roleId: idOf(properties.Role),
        });
        break;
      }
      case 'AWS::SQS::Queue':
        queues.set(id, {
          id,
          url: ref(id),
          arn: getAtt(id, 'Arn'),
          attributes: Object.fromEntries(
            ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'ReceiveMessageWaitTimeSeconds']
              .filter((name) => properties[name] !== undefined)
              .map((name) => [name, String(properties[name])]),
          ),
        });
        break;
      case 'AWS::DynamoDB::Table':
        tables.set(id, { id, arn: getAtt(id, 'Arn'), properties });
        break;
      case 'AWS::IAM::Policy':
        for (const role of properties.Roles as Json[]) {
          const roleId = idOf(role);
          rolePolicies.set(roleId, [
            ...(rolePolicies.get(roleId) ?? []),
            resolveValue(properties.PolicyDocument) as PolicyDocument,
          ]);
        }
        break;
      case 'AWS::Events::Rule':
        rules.push({
          id,
          pattern: resolveValue(properties.EventPattern),
          functionIds: (properties.Targets as { Arn: Json }[]).map((target) => idOf(target.Arn)),
        });
        break;
      case 'AWS::Lambda::EventSourceMapping': {
        const sourceId = idOf(properties.EventSourceArn);
        const destination = (properties.DestinationConfig as { OnFailure?: { Destination?: Json } })
          ?.OnFailure?.Destination;
        const filters = (properties.FilterCriteria as { Filters?: { Pattern: string }[] })?.Filters ?? [];
        mappings.push({
          id,
          functionId: idOf(properties.FunctionName),
          sourceId,
          kind: typeOf(sourceId) === 'AWS::SQS::Queue' ? 'sqs' : 'stream',
          batchSize: Number(properties.BatchSize ?? 10),
          batchingWindowSeconds: Number(properties.MaximumBatchingWindowInSeconds ?? 0),
          reportsItemFailures: ((properties.FunctionResponseTypes as Json[]) ?? []).includes(
            'ReportBatchItemFailures',
          ),
          maxConcurrency: Number(
            (properties.ScalingConfig as { MaximumConcurrency?: number })?.MaximumConcurrency ?? 5,
          ),
          ...(properties.StartingPosition
            ? { startingPosition: properties.StartingPosition as 'TRIM_HORIZON' | 'LATEST' }
            : {}),
          parallelizationFactor: Number(properties.ParallelizationFactor ?? 1),
          ...(properties.MaximumRetryAttempts !== undefined
            ? { maxRetries: Number(properties.MaximumRetryAttempts) }
            : {}),
          ...(Number(properties.MaximumRecordAgeInSeconds ?? -1) > 0
            ? { maxRecordAgeSeconds: Number(properties.MaximumRecordAgeInSeconds) }
            : {}),
          filters: filters.map((filter) => JSON.parse(filter.Pattern)),
          ...(destination ? { onFailureQueueId: idOf(destination) } : {}),
        });
        break;
      }
    }
  }

  return {
    region,
    template,
    functions,
    queues,
    tables,
    mappings,
    rules,
    rolePolicies,
    resolve: resolveValue,
    only(type, idPrefix = '') {
      const ids = Object.keys(resources).filter(
        (id) => resources[id]?.Type === type && id.startsWith(idPrefix),
      );
      if (ids.length !== 1) throw new Error(`${ids.length} resources of ${type} ${idPrefix}, not one`);
      return ids[0] as string;
    },
  };
}
