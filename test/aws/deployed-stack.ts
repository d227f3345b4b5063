import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The Mandje stack as `cdk synth` wrote it to cdk.out/, read as CloudFormation would create it, with every
 * reference resolved to the names the emulators use here: a physical name is the resource's logical id; the
 * region is the template's own.
 */

export const CDK_OUT = resolve(import.meta.dirname, '../../cdk.out');
export const ACCOUNT = '000000000000';
/** What CloudFront adds as the origin secret; the template reads it from Secrets Manager. */
export const ORIGIN_SECRET = 'origin-secret-for-the-production-path';
export const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';
if (!existsSync(join(CDK_OUT, 'Mandje.template.json')))
  throw new Error('cdk.out/ holds no synthesized stack: run `npm run synth` first (npm run test:aws does)');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Resource = { Type: string; Properties?: Record<string, Json> };
export type PolicyDocument = { Version?: string; Statement: Record<string, unknown>[] };
export type DeployedStack = ReturnType<typeof readDeployedStack>;
export type EventSourceMapping = DeployedStack['mappings'][number];

const idOf = (value: unknown): string => {
  const json = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = json.Ref ?? json['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`not a reference: ${JSON.stringify(value)}`);
  return id;
};

export function readDeployedStack(stackName = 'Mandje') {
  const manifest = JSON.parse(readFileSync(join(CDK_OUT, 'manifest.json'), 'utf8'));
  const region = String(manifest.artifacts[stackName].environment).split('/').pop() ?? 'eu-west-1';
  const template: { Resources: Record<string, Resource>; Outputs?: Record<string, { Value: Json }> } =
    JSON.parse(readFileSync(join(CDK_OUT, `${stackName}.template.json`), 'utf8'));
  const resources = template.Resources;
  const arnOf = (service: string, resource: string) => `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;

  const ref = (id: string): string => {
    const type = resources[id]?.Type;
    if (type === undefined) throw new Error(`Ref to ${id}, which the template does not hold`);
    if (type === 'AWS::SQS::Queue') return `https://sqs.${region}.amazonaws.com/${ACCOUNT}/${id}`;
    if (type === 'AWS::SNS::Topic') return arnOf('sns', id);
    if (type === 'AWS::SES::EmailIdentity') return String(resources[id]?.Properties?.EmailIdentity);
    return id;
  };
  const ARNS: Record<string, (id: string) => string> = {
    'AWS::SQS::Queue': (id) => arnOf('sqs', id),
    'AWS::DynamoDB::Table': (id) => arnOf('dynamodb', `table/${id}`),
    'AWS::Logs::LogGroup': (id) => arnOf('logs', `log-group:${id}`),
    'AWS::Lambda::Function': (id) => arnOf('lambda', `function:${id}`),
    'AWS::Events::Rule': (id) => arnOf('events', `rule/${id}`),
    'AWS::IAM::Role': (id) => `arn:aws:iam::${ACCOUNT}:role/${id}`,
  };
  const getAtt = (id: string, attribute: string): string => {
    const arn = ARNS[resources[id]?.Type ?? ''];
    if (attribute === 'Arn' && arn) return arn(id);
    if (attribute === 'QueueName') return id;
    if (attribute === 'StreamArn') return arnOf('dynamodb', `table/${id}/stream/*`);
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
  const FUNCTIONS: Record<string, (argument: never) => unknown> = {
    Ref: (id: string) => pseudo[id] ?? ref(id),
    'Fn::GetAtt': ([id, attribute]: [string, string]) => getAtt(id, attribute),
    'Fn::Join': ([separator, parts]: [string, unknown[]]) =>
      secrets((resolveValue(parts) as unknown[]).join(separator)),
    'Fn::Sub': (text: string) =>
      text.replace(/\$\{([^}]+)\}/g, (_, name: string) => String(pseudo[name] ?? ref(name))),
    'Fn::Select': ([index, list]: [number, unknown]) => (resolveValue(list) as unknown[])[index],
    'Fn::Split': ([separator, text]: [string, unknown]) => String(resolveValue(text)).split(separator),
  };
  /** A template value as CloudFormation would put it there. */
  const resolveValue = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolveValue);
    if (typeof value === 'string') return secrets(value);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value);
    const [key = '', argument] = entries[0] ?? [];
    if (entries.length === 1 && FUNCTIONS[key]) return FUNCTIONS[key](argument as never);
    return Object.fromEntries(entries.map(([name, inner]) => [name, resolveValue(inner)]));
  };
  const ofType = (type: string) =>
    Object.entries(resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id, resource]) => ({ id, p: resource.Properties ?? {} }));

  // Ours only: a function whose asset is a bundle index.mjs (not CDK's own deployment helper).
  const functions = ofType('AWS::Lambda::Function').flatMap(({ id, p }) => {
    const dir = join(CDK_OUT, `asset.${String((p.Code as { S3Key?: string }).S3Key).replace(/\.zip$/, '')}`);
    const variables = (p.Environment as { Variables?: Record<string, Json> })?.Variables ?? {};
    const environment = resolveValue(variables) as Record<string, string>;
    const fn = { id, dir, timeoutSeconds: Number(p.Timeout ?? 3), environment, roleId: idOf(p.Role) };
    return existsSync(join(dir, 'index.mjs')) ? [[id, fn] as const] : [];
  });
  const queueAttributes = [
    'VisibilityTimeout',
    'MessageRetentionPeriod',
    'DelaySeconds',
    'ReceiveMessageWaitTimeSeconds',
  ];
  const queues = ofType('AWS::SQS::Queue').map(({ id, p }) => {
    const attributes = queueAttributes
      .filter((name) => p[name] !== undefined)
      .map((name) => [name, String(p[name])]);
    return [
      id,
      { id, url: ref(id), arn: getAtt(id, 'Arn'), attributes: Object.fromEntries(attributes) },
    ] as const;
  });
  const rolePolicies = new Map<string, PolicyDocument[]>();
  for (const { p } of ofType('AWS::IAM::Policy'))
    for (const roleId of (p.Roles as Json[]).map(idOf))
      rolePolicies.set(roleId, [
        ...(rolePolicies.get(roleId) ?? []),
        resolveValue(p.PolicyDocument) as PolicyDocument,
      ]);

  return {
    region,
    template,
    functions: new Map(functions),
    queues: new Map(queues),
    tables: new Map(ofType('AWS::DynamoDB::Table').map(({ id, p }) => [id, { id, properties: p }])),
    mappings: ofType('AWS::Lambda::EventSourceMapping').map(({ id, p }) => {
      const sourceId = idOf(p.EventSourceArn);
      const destination = (p.DestinationConfig as { OnFailure?: { Destination?: Json } })?.OnFailure
        ?.Destination;
      const filters = (p.FilterCriteria as { Filters?: { Pattern: string }[] })?.Filters ?? [];
      const scaling = p.ScalingConfig as { MaximumConcurrency?: number } | undefined;
      return {
        id,
        functionId: idOf(p.FunctionName),
        /** The queue's or the table's logical id. */
        sourceId,
        kind: resources[sourceId]?.Type === 'AWS::SQS::Queue' ? ('sqs' as const) : ('stream' as const),
        batchSize: Number(p.BatchSize ?? 10),
        batchingWindowSeconds: Number(p.MaximumBatchingWindowInSeconds ?? 0),
        reportsItemFailures: ((p.FunctionResponseTypes as Json[]) ?? []).includes('ReportBatchItemFailures'),
        maxConcurrency: Number(scaling?.MaximumConcurrency ?? 5),
        startingPosition: (p.StartingPosition ?? 'LATEST') as 'TRIM_HORIZON' | 'LATEST',
        maxRetries: Number(p.MaximumRetryAttempts ?? Number.POSITIVE_INFINITY),
        /** A stream record's maximum age in seconds (-1: none): older, a failing record is given up. */
        maxRecordAgeSeconds: Number(p.MaximumRecordAgeInSeconds ?? -1),
        /** Lambda's event filter patterns, parsed; a record passes when any matches. */
        filters: filters.map((filter) => JSON.parse(filter.Pattern)) as unknown[],
        onFailureQueueId: destination ? idOf(destination) : undefined,
      };
    }),
    /** EventBridge rules on the default bus: each pattern, resolved, and the functions it invokes. */
    rules: ofType('AWS::Events::Rule').map(({ id, p }) => ({
      id,
      pattern: resolveValue(p.EventPattern),
      functionIds: (p.Targets as { Arn: Json }[]).map((target) => idOf(target.Arn)),
    })),
    /** Each role's inline policies, resolved. */
    rolePolicies,
    resolve: resolveValue,
    /** The one resource of `type` (fails when there is not exactly one). */
    only(type: string, idPrefix = ''): string {
      const ids = ofType(type)
        .map(({ id }) => id)
        .filter((id) => id.startsWith(idPrefix));
      if (ids.length !== 1) throw new Error(`${ids.length} resources of ${type} ${idPrefix}, not one`);
      return ids[0] as string;
    },
  };
}
