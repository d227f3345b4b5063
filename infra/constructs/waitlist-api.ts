import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { WAITLIST_TABLE_EXPIRY_ATTRIBUTE, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';

export interface WaitlistApiProps {
  /** Steady requests per second the stage lets through, and the burst above it. */
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
}

const repoRoot = join(import.meta.dirname, '../..');

/**
 * `POST /api/waitlist`: an HTTP API route to the waitlist Lambda, which may put items in its table and
 * write its own logs, and nothing else.
 */
export class WaitlistApi extends Construct {
  public readonly table: Table;
  public readonly handler: NodejsFunction;
  public readonly httpApi: HttpApi;
  public readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: WaitlistApiProps) {
    super(scope, id);

    // People's addresses: never deleted by a stack operation, recoverable to any second of the last 35 days.
    this.table = new Table(this, 'Table', {
      partitionKey: { name: WAITLIST_TABLE_KEY.name, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // The privacy notice's promise: no address is kept longer than RETENTION_DAYS.
      timeToLiveAttribute: WAITLIST_TABLE_EXPIRY_ATTRIBUTE,
    });

    const functionLogs = new LogGroup(this, 'HandlerLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Written out by hand: grantWriteData and the basic execution policy both grant more than this.
    const role = new Role(this, 'HandlerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Waitlist handler: put items in the waitlist table, write its own logs',
    });
    role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem'],
        resources: [this.table.tableArn],
      }),
    );
    role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [`${functionLogs.logGroupArn}:*`],
      }),
    );

    this.handler = new NodejsFunction(this, 'Handler', {
      entry: join(repoRoot, 'functions/waitlist/handler.ts'),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // 256 MB gives enough CPU for a cold start well under a second; one put needs little memory.
      memorySize: 256,
      // The SDK gives up after three attempts of at most 2 s; 10 s leaves room and stays under the page's wait.
      timeout: Duration.seconds(10),
      role,
      logGroup: functionLogs,
      environment: { TABLE_NAME: this.table.tableName, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: OutputFormat.ESM,
        minify: true,
        sourceMap: true,
        target: 'node24',
        // The runtime provides the AWS SDK v3.
        externalModules: ['@aws-sdk/*'],
        banner:
          "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
    });

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Mandje waitlist',
      createDefaultStage: false,
    });
    this.httpApi.addRoutes({
      path: WAITLIST_PATH,
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('JoinWaitlist', this.handler),
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // No source IP and no body: nothing that identifies a visitor.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
  }
}
