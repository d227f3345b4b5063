import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH, VISITOR_TABLE_EXPIRY_ATTRIBUTE, VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import {
  MAILBOX_INDEX,
  TOKEN_INDEX,
  WAITLIST_TABLE_EXPIRY_ATTRIBUTE,
  WAITLIST_TABLE_KEY,
} from '#contract/waitlist-table';
import { BuiltFunction } from './built-function';

export interface WaitlistApiProps {
  /** Where functions/build.ts wrote the functions (dist-functions/), the confirm and leave pages beside one. */
  functionsDir: string;
  /** Steady requests per second the stage lets through, and the burst above it. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Executions reserved for the function (`-c apiReservedConcurrency`); none unless given. */
  reservedConcurrency?: number;
  logRetention: RetentionDays;
}

/**
 * The waitlist's table and its HTTP API, whose every route goes to one function (functions/api):
 * - `POST /api/waitlist` puts a signup in the table, or updates it to ask for the confirmation mail again;
 * - `POST /api/visit`, the home pages' beacon (functions/visit), reads and puts the day's salt and visitor
 *   hashes in the visitor table, and adds to the day's count in the waitlist table;
 * - `GET /api/confirm` (and `HEAD`) shows the page a confirmation link opens, `POST` confirms: a query of
 *   the token index, then an update of the record it finds;
 * - `GET /api/leave` (and `HEAD`) shows the page a leave link opens, `POST` (that page, or a mail client's
 *   one-click unsubscribe) finds the record by its token and deletes every record of its mailbox;
 * - `POST /api/leave-request`, the privacy page's form, marks a record as asking for its leave link.
 * The function may do those and write its own logs; nothing else. GET and HEAD change nothing: link
 * scanners open links, and link checkers ask with HEAD before a person clicks.
 */
export class WaitlistApi extends Construct {
  public readonly table: Table;
  /** The day's visitors: its salt and one hash per visitor, each gone with its day (#contract/visit-counting). */
  public readonly visitorTable: Table;
  /** The token index's ARN: what confirming may query, and nothing else of the table. */
  public readonly tokenIndexArn: string;
  /** The mailbox index's ARN: what leaving may query to find every record of a person's mailbox. */
  public readonly mailboxIndexArn: string;
  public readonly handler: LambdaFunction;
  public readonly httpApi: HttpApi;
  public readonly stage: HttpStage;
  /** The stage's access log: one line per request, with its status, and nothing that identifies a visitor. */
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
      // The mail-requests function reads new and changed records from it. Old and new: it acts on a change
      // that asks for a new mail, not on the mailer's own claim and mark.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TOKEN_INDEX.name,
      partitionKey: { name: TOKEN_INDEX.key.name, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...TOKEN_INDEX.projection],
    });
    this.tokenIndexArn = `${this.table.tableArn}/index/${TOKEN_INDEX.name}`;
    // A table deployed before it gets it in one update: CloudFormation adds one index per update.
    this.table.addGlobalSecondaryIndex({
      indexName: MAILBOX_INDEX.name,
      partitionKey: { name: MAILBOX_INDEX.key.name, type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });
    this.mailboxIndexArn = `${this.table.tableArn}/index/${MAILBOX_INDEX.name}`;

    // Hashes that mean nothing once their day's salt is gone: no backups, which would keep the salt, and
    // nothing to keep when the stack goes. Its time to live deletes each item after its day.
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
      // 256 MB gives enough CPU for a cold start well under a second; a request needs little memory.
      memorySize: 256,
      // The store gives up after 5 s (STORE_DEADLINE_MS); 10 s leaves room and stays under the page's wait.
      timeout: Duration.seconds(10),
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      environment: {
        TABLE_NAME: this.table.tableName,
        VISITOR_TABLE_NAME: this.visitorTable.tableName,
      },
      // Written out by hand: grantReadWriteData would also allow scans and batch writes.
      permissions: [
        // The two indexes only: no query reads whole records. The token index finds a link's record (to
        // confirm or to leave), the mailbox index every record of the person leaving.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:Query'],
          resources: [this.tokenIndexArn, this.mailboxIndexArn],
        }),
        // PutItem: a signup; UpdateItem: a mail asked for again, a confirmation, the day's visits, the count
        // of people who left; GetItem: a consistent read after a failed condition, a leave link's record;
        // DeleteItem: the records of a person who leaves.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:DeleteItem'],
          resources: [this.table.tableArn],
        }),
        // The day's salt, read and made; a visitor's marker, put once a day.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
          resources: [this.visitorTable.tableArn],
        }),
      ],
      logRetention: props.logRetention,
    }).function;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Mandje API',
      createDefaultStage: false,
    });
    const integration = new HttpLambdaIntegration('Api', this.handler);
    const routes: [string, HttpMethod[]][] = [
      [WAITLIST_PATH, [HttpMethod.POST]],
      [VISIT_PATH, [HttpMethod.POST]],
      [CONFIRM_PATH, [HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST]],
      [LEAVE_PATH, [HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST]],
      [LEAVE_REQUEST_PATH, [HttpMethod.POST]],
    ];
    for (const [path, methods] of routes) this.httpApi.addRoutes({ path, methods, integration });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.accessLogs = accessLogs;
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
