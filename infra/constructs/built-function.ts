import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface BuiltFunctionProps {
  /** Where functions/build.ts wrote the functions (dist-functions/). */
  functionsDir: string;
  /** The function's folder in it: its FUNCTIONS key in functions/build.ts. */
  name: string;
  /** What the function does; its role is described by the same words. */
  description: string;
  memorySize: number;
  timeout: Duration;
  environment: Record<string, string>;
  /** Executions kept for this function alone (and its ceiling); none unless given. */
  reservedConcurrentExecutions?: number;
  /** What the function may do besides writing its own logs, each statement written out. */
  permissions: PolicyStatement[];
  logRetention: RetentionDays;
}

/**
 * A Lambda function deployed from the folder functions/build.ts wrote for it, as it is: the bundle that is
 * measured is the bundle that runs, with its source map. Its role has no managed policies: its own log
 * writes, and `permissions`.
 */
export class BuiltFunction extends Construct {
  public readonly function: LambdaFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BuiltFunctionProps) {
    super(scope, id);
    const folder = join(props.functionsDir, props.name);
    // The bundle and its source map, as functions/build.ts writes them: a function never ships without its
    // map, so a stack trace in its log always names a source file and line.
    for (const file of ['index.mjs', 'index.mjs.map'])
      if (!existsSync(join(folder, file)))
        throw new Error(`${join(folder, file)} is missing: build the functions first (npm run build)`);

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Written out by hand: the basic execution policy would let it write to any log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    this.role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [`${this.logGroup.logGroupArn}:*`],
      }),
    );
    for (const statement of props.permissions) this.role.addToPolicy(statement);

    this.function = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(folder),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      description: props.description,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ...(props.reservedConcurrentExecutions
        ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions }
        : {}),
      role: this.role,
      logGroup: this.logGroup,
      // Lambda's JSON log format: every line an object with its level. The functions' own lines carry the
      // metrics (functions/telemetry/metrics.ts) at INFO, so INFO is the lowest level that may be kept; the
      // platform's REPORT lines (durations, cold starts) are INFO too.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.INFO,
      // Node reads the map beside the bundle only with this flag.
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
  }
}
