import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_ROUTES } from '#contract/api-routes';
import { VISITOR_TABLE_EXPIRY_ATTRIBUTE, VISITOR_TABLE_KEY } from '#contract/visit-counting';
import {
  MAILBOX_INDEX,
  TOKEN_INDEX,
  WAITLIST_TABLE_EXPIRY_ATTRIBUTE,
  WAITLIST_TABLE_KEY,
} from '#contract/waitlist-table';
import { BuiltFunction, createLogGroup } from './built-function';

export interface WaitlistApiProps {
  functionsDir: string;
  /** Steady requests per second the stage lets through; its burst is twice that. */
  apiRateLimit: number;
  apiReservedConcurrency?: number;
}

/** The waitlist's tables and its HTTP API, every route (#contract/api-routes) to one function (functions/api). */
export class WaitlistApi extends Construct {
  public readonly table: Table;
  public readonly visitorTable: Table;
  public readonly handler: LambdaFunction;
  public readonly httpApi: HttpApi;
  public readonly accessLogs: LogGroup;

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
      // Read by mail-requests, which acts on a change that asks for a new mail, not on the mailer's own.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TOKEN_INDEX.name,
      partitionKey: { name: TOKEN_INDEX.key.name, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...TOKEN_INDEX.projection],
    });
    this.table.addGlobalSecondaryIndex({
      indexName: MAILBOX_INDEX.name,
      partitionKey: { name: MAILBOX_INDEX.key.name, type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });

    // Hashes that mean nothing once their day's salt is gone: no backups, which would keep the salt.
    this.visitorTable = new Table(this, 'VisitorTable', {
      partitionKey: { name: VISITOR_TABLE_KEY.name, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: VISITOR_TABLE_EXPIRY_ATTRIBUTE,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.handler = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'api',
      description:
        'Mandje API: join the waitlist, count visitors, confirm a signup, leave, ask for a leave link',
      // The store gives up after 5 s (STORE_DEADLINE_MS): room, and under the page's wait.
      timeout: Duration.seconds(10),
      reservedConcurrentExecutions: props.apiReservedConcurrency,
      environment: { TABLE_NAME: this.table.tableName, VISITOR_TABLE_NAME: this.visitorTable.tableName },
      // Written out by hand: grantReadWriteData would also allow scans and batch writes.
      permissions: [
        // The two indexes only: no query reads whole records.
        {
          actions: ['dynamodb:Query'],
          resources: [TOKEN_INDEX.name, MAILBOX_INDEX.name].map(
            (index) => `${this.table.tableArn}/index/${index}`,
          ),
        },
        {
          actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:DeleteItem'],
          resources: [this.table.tableArn],
        },
        { actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], resources: [this.visitorTable.tableArn] },
      ],
    }).function;

    this.httpApi = new HttpApi(this, 'HttpApi', { description: 'Mandje API', createDefaultStage: false });
    const integration = new HttpLambdaIntegration('Api', this.handler);
    for (const [path, methods] of Object.entries(API_ROUTES))
      this.httpApi.addRoutes({ path, methods: methods.map((method) => HttpMethod[method]), integration });

    this.accessLogs = createLogGroup(this, 'AccessLogs');
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.apiRateLimit, burstLimit: 2 * props.apiRateLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
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
