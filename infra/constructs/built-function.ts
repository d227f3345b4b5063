import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export const createLogGroup = (scope: Construct, id: string) =>
  new LogGroup(scope, id, { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });

/** A Lambda function deployed from the folder functions/build.ts wrote for it: the measured bundle runs. */
export class BuiltFunction extends Construct {
  public readonly function: lambda.Function;

  constructor(
    scope: Construct,
    id: string,
    {
      functionsDir,
      name,
      description,
      ...props
    }: {
      /** Where functions/build.ts wrote the functions (dist-functions/), and the function's folder in it. */
      functionsDir: string;
      name: string;
      description: string;
      timeout: Duration;
      environment: Record<string, string>;
      reservedConcurrentExecutions?: number;
      /** What the function may do besides writing its own logs. */
      permissions: { actions: string[]; resources: string[] }[];
    },
  ) {
    super(scope, id);
    const folder = join(functionsDir, name);
    // Never without its map, so a stack trace in its log names a source file and line.
    for (const file of ['index.mjs', 'index.mjs.map'])
      if (!existsSync(join(folder, file)))
        throw new Error(`${join(folder, file)} is missing: build the functions first (npm run build)`);

    const logGroup = createLogGroup(this, 'Logs');
    // Written out by hand: the basic execution policy would let it write to any log group.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description,
    });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [`${logGroup.logGroupArn}:*`],
      }),
    );
    for (const statement of props.permissions) role.addToPolicy(new PolicyStatement(statement));

    this.function = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(folder),
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      description,
      // For the CPU: a cold start well under a second; a request needs little memory.
      memorySize: 256,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      role,
      logGroup,
      // The metric lines (functions/telemetry/metrics.ts) and the platform's REPORT lines are at INFO.
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      // Node reads the map beside the bundle only with this flag.
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
  }
}
