import { Duration } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { BuiltFunction } from './built-function';

export interface LeaveApiProps {
  /** Where functions/build.ts wrote the functions (dist-functions/), the leave pages beside one. */
  functionsDir: string;
  /** The API the routes are added to, served under /api/* by the site's distribution. */
  httpApi: HttpApi;
  table: ITable;
  /** The table's token index, the one way to find a record by the link's token. */
  tokenIndexArn: string;
  /** The table's mailbox index: how leaving finds every record of the person's mailbox. */
  mailboxIndexArn: string;
  logRetention: RetentionDays;
}

/**
 * Leaving the waitlist (#contract/leave). `GET /api/leave` (and `HEAD`) shows the page a mail's leave link
 * opens; `POST /api/leave` removes the person, from that page or a mail client's one-click unsubscribe.
 * `POST /api/leave-request` is the privacy page's form, which asks for a mail with the leave link.
 *
 * The leave function may look a token up in the token index, read the record it finds, look its mailbox
 * up in the mailbox index, delete those records and count the person; the leave-request function may read
 * a record and mark it (or the stand-in item) as asking for a leave link; each writes its own logs and
 * nothing else.
 */
export class LeaveApi extends Construct {
  public readonly leaveHandler: LambdaFunction;
  public readonly leaveRequestHandler: LambdaFunction;

  constructor(scope: Construct, id: string, props: LeaveApiProps) {
    super(scope, id);

    this.leaveHandler = new BuiltFunction(this, 'LeaveHandler', {
      functionsDir: props.functionsDir,
      name: 'leave',
      description:
        'Leave handler: find a record by its leave token, delete every record of its mailbox, count the person',
      // As the confirm function: two queries, a read, a few deletes and an update, well under a second.
      memorySize: 256,
      timeout: Duration.seconds(10),
      environment: { TABLE_NAME: props.table.tableName },
      permissions: [
        // The two indexes only, never the table itself: no query reads whole records.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:Query'],
          resources: [props.tokenIndexArn, props.mailboxIndexArn],
        }),
        // GetItem: the token's record, to check the token; DeleteItem: the mailbox's records; UpdateItem:
        // the count of people who left, in the same table.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
        }),
      ],
      logRetention: props.logRetention,
    }).function;

    props.httpApi.addRoutes({
      path: LEAVE_PATH,
      // HEAD as GET without the body: link checkers ask with HEAD before a person clicks.
      methods: [HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST],
      integration: new HttpLambdaIntegration('LeaveWaitlist', this.leaveHandler),
    });

    this.leaveRequestHandler = new BuiltFunction(this, 'LeaveRequestHandler', {
      functionsDir: props.functionsDir,
      name: 'leave-request',
      description: 'Leave-request handler: mark a waitlist record as asking for a mail with its leave link',
      memorySize: 256,
      timeout: Duration.seconds(10),
      environment: { TABLE_NAME: props.table.tableName },
      permissions: [
        // One read and one write for every address, on the list or not (functions/leave-request).
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
        }),
      ],
      logRetention: props.logRetention,
    }).function;

    props.httpApi.addRoutes({
      path: LEAVE_REQUEST_PATH,
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('RequestLeaveLink', this.leaveRequestHandler),
    });
  }
}
