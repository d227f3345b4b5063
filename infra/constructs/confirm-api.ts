import { Duration } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CONFIRM_PATH } from '#contract/confirmation';
import { BuiltFunction } from './built-function';

export interface ConfirmApiProps {
  /** Where functions/build.ts wrote the functions (dist-functions/), the confirmation pages beside one. */
  functionsDir: string;
  /** The API the routes are added to, served under /api/* by the site's distribution. */
  httpApi: HttpApi;
  table: ITable;
  /** The table's token index, the one way to find a record by the link's token. */
  tokenIndexArn: string;
  logRetention: RetentionDays;
}

/**
 * `GET /api/confirm` (and `HEAD`, the same without the body) shows the confirmation page a mail's link
 * opens; `POST /api/confirm` is its button, which confirms. The function may look a token up in the token
 * index, read and update the record it finds, and write its own logs; nothing else.
 */
export class ConfirmApi extends Construct {
  public readonly handler: LambdaFunction;

  constructor(scope: Construct, id: string, props: ConfirmApiProps) {
    super(scope, id);

    this.handler = new BuiltFunction(this, 'Handler', {
      functionsDir: props.functionsDir,
      name: 'confirm',
      description: 'Confirm handler: find a signup by its token in the token index, mark it confirmed',
      // As the waitlist function: a query and an update (and a read when that fails), well under a second
      // from a cold start.
      memorySize: 256,
      timeout: Duration.seconds(10),
      environment: { TABLE_NAME: props.table.tableName },
      permissions: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:Query'],
          resources: [props.tokenIndexArn],
        }),
        // GetItem: when the conditional update fails, a strongly consistent read of that one record tells
        // a second press of the button from a stale link.
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
        }),
      ],
      logRetention: props.logRetention,
    }).function;

    props.httpApi.addRoutes({
      path: CONFIRM_PATH,
      // HEAD as GET without the body: link checkers ask with HEAD before a person clicks.
      methods: [HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST],
      integration: new HttpLambdaIntegration('ConfirmSignup', this.handler),
    });
  }
}
