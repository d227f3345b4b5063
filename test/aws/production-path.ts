import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { simpleParser } from 'mailparser';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { apiGatewayEvent } from '../../local/api-gateway-event';
import { type AnnounceRequest, announce } from '../../operator/announce-command';
import { startAwsEmulators } from './aws-emulators';
import { throughCloudFront } from './cloudfront';
import { DISTRIBUTION_DOMAIN, readDeployedStack } from './deployed-stack';
import { LambdaFunction, type LogLine, matchesPattern, runEventSources } from './lambda-service';
import { roleChecker } from './role-check';
import { simulatorEvents } from './ses-simulator';

/**
 * The production path on this machine: the stack from cdk.out, its tables and queues made in the
 * emulators as CloudFormation would make them, its functions' bundles run by the event source mappings
 * the template declares, and the API's functions invoked as API Gateway invokes them through CloudFront.
 */
export type ProductionPath = Awaited<ReturnType<typeof startProductionPath>>;
type ApiAnswer = { statusCode: number; body?: string; headers?: Record<string, string> };

/**
 * The route API Gateway may take a path for. How it resolves a path is not documented beyond matching a
 * trailing slash and decoding percent-encoding, so this takes the worst case: CloudFront and API Gateway
 * hand on a path as sent (in rawPath) to the route it resolves to, dot segments and backslashes included.
 */
function routedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  return new URL(`https://api${decoded.replace(/[\\/]+/g, '/')}`).pathname.replace(/(.)\/$/, '$1');
}

export async function startProductionPath() {
  const stack = readDeployedStack();
  const resources = stack.template.Resources;
  const aws = await startAwsEmulators(stack.region, roleChecker(stack));
  const credentials = { accessKeyId: 'harness', secretAccessKey: 'harness' };
  const dynamodb = new DynamoDBClient({ endpoint: aws.endpoint, region: stack.region, credentials });
  const db = DynamoDBDocumentClient.from(dynamodb);
  const sqs = new SQSClient({ endpoint: aws.endpoint, region: stack.region, credentials });

  // The tables and queues as the template declares them (what DynamoDB Local and fauxqs model of them).
  const streamArns = new Map<string, string>();
  for (const { id, properties } of stack.tables.values()) {
    const { KeySchema, AttributeDefinitions, GlobalSecondaryIndexes, StreamSpecification } =
      properties as Record<string, never>;
    await dynamodb.send(
      new CreateTableCommand({
        TableName: id,
        KeySchema,
        AttributeDefinitions,
        BillingMode: 'PAY_PER_REQUEST',
        GlobalSecondaryIndexes,
        StreamSpecification: StreamSpecification && {
          StreamEnabled: true,
          ...(StreamSpecification as object),
        },
      }),
    );
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: id }));
    if (Table?.LatestStreamArn) streamArns.set(id, Table.LatestStreamArn);
  }
  for (const queue of stack.queues.values())
    await sqs.send(new CreateQueueCommand({ QueueName: queue.id, Attributes: queue.attributes }));

  const logs: LogLine[] = [];
  const functions = new Map<string, LambdaFunction>();
  for (const fn of stack.functions.values()) {
    const { NODE_OPTIONS: _flags, ...variables } = fn.environment;
    const environment = {
      ...variables,
      AWS_REGION: stack.region,
      AWS_DEFAULT_REGION: stack.region,
      AWS_ACCESS_KEY_ID: fn.id,
      AWS_SECRET_ACCESS_KEY: 'emulated',
      AWS_ENDPOINT_URL: aws.endpoint,
      AWS_LAMBDA_FUNCTION_NAME: fn.id,
      TZ: 'UTC',
    };
    functions.set(fn.id, new LambdaFunction(fn, environment, logs));
  }

  const sources = runEventSources({
    stack,
    sqs,
    functions,
    async streams(action, body) {
      const answer = await fetch(aws.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDBStreams_20120810.${action}`,
          authorization: `AWS4-HMAC-SHA256 Credential=harness/20260101/${stack.region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
        },
        body: JSON.stringify(body),
      });
      const json = (await answer.json()) as Record<string, unknown>;
      if (!answer.ok) throw new Error(`${action}: ${JSON.stringify(json)}`);
      return json;
    },
    streamArn(tableId) {
      const arn = streamArns.get(tableId);
      if (!arn) throw new Error(`table ${tableId} has no stream`);
      return arn;
    },
  });

  // SES's events for mail to its mailbox simulator, published as the configuration set's event destinations
  // say (enabled, to EventBridge's default bus, of the types they match); each, in order, to the functions
  // whose rule matches it, invoked asynchronously (a failed invocation is tried twice more, as Lambda does).
  type EventDestination = {
    ConfigurationSetName: string;
    EventDestination: {
      Enabled?: boolean;
      MatchingEventTypes: string[];
      EventBridgeDestination?: { EventBusArn: string };
    };
  };
  const destinations = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::SES::ConfigurationSetEventDestination')
    .map((resource) => stack.resolve(resource.Properties) as EventDestination);
  const published = (configurationSet: string | undefined, eventType: string) =>
    destinations.some(
      ({ ConfigurationSetName, EventDestination: destination }) =>
        ConfigurationSetName === configurationSet &&
        destination.Enabled === true &&
        destination.EventBridgeDestination?.EventBusArn.endsWith(':event-bus/default') &&
        destination.MatchingEventTypes.includes(eventType.toLowerCase()),
    );
  let events = Promise.resolve();
  aws.ses.onSent = (mail) => {
    for (const to of mail.to)
      for (const event of simulatorEvents({ ...mail, to }, stack.region))
        if (published(mail.configurationSet, event.detail.eventType))
          for (const rule of stack.rules.filter(({ pattern }) => matchesPattern(pattern, event)))
            for (const functionId of rule.functionIds)
              events = events.then(async () => {
                const target = functions.get(functionId);
                for (let attempt = 1; target && attempt <= 3; attempt++)
                  if (!(await target.invoke(event)).error) return;
                const why = target ? 'failed three times' : 'is not in the template';
                sources.errors.push(new Error(`${functionId}, invoked by ${rule.id}, ${why}`));
              });
  };

  // Which function each API route invokes, as the template wires route, integration and function.
  const routeFunction = new Map<string, string>();
  for (const route of Object.values(resources).filter(({ Type }) => Type === 'AWS::ApiGatewayV2::Route')) {
    const target = String(stack.resolve(route.Properties?.Target)).split('/').pop() ?? '';
    const uri = resources[target]?.Properties?.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    routeFunction.set(String(route.Properties?.RouteKey), uri['Fn::GetAtt'][0]);
  }

  const tableName = stack.only('AWS::DynamoDB::Table', 'WaitlistTable');
  /** An API Gateway event to the function its route names, as the template wires them; its answer. */
  async function route(event: APIGatewayProxyEventV2): Promise<ApiAnswer> {
    const { method } = event.requestContext.http;
    const routed = routedPath(event.rawPath);
    const functionId = routeFunction.get(`${method} ${routed}`) ?? routeFunction.get(`ANY ${routed}`);
    const fn = functionId ? functions.get(functionId) : undefined;
    if (!fn) throw new Error(`no route for ${method} ${routed} in the template`);
    const answer = await fn.invoke(event);
    if (answer.error) throw new Error(`${functionId} failed: ${answer.error.name}: ${answer.error.message}`);
    return answer.result as ApiAnswer;
  }

  return {
    stack,
    aws,
    logs,
    functions,
    sources,
    /** The harness's own document client: reads and seeds, never checked against a role. */
    db,
    sqs,
    tableName,
    limitTableName: stack.only('AWS::DynamoDB::Table', 'MailerMailLimitTable'),
    route,
    /**
     * A request through CloudFront to the API: the headers its origin request policy forwards, with the
     * origin secret, to the function its route names; API Gateway's 403 when the Host is not the API's.
     */
    async api(
      method: string,
      path: string,
      {
        body,
        contentType = 'application/json',
        query,
      }: { body?: string; contentType?: string; query?: string } = {},
    ): Promise<ApiAnswer> {
      const { originDomain, headers } = throughCloudFront(stack, path, {
        host: DISTRIBUTION_DOMAIN,
        origin: `https://${DISTRIBUTION_DOMAIN}`,
        'content-type': contentType,
        'user-agent': 'production-path',
        // CloudFront's own: the viewer's address and port.
        'cloudfront-viewer-address': '198.51.100.7:51234',
      });
      // API Gateway serves its own domain (or a custom domain of its): another Host is refused before any route.
      if (headers.host !== originDomain) return { statusCode: 403, body: '{"message":"Forbidden"}' };
      return route(apiGatewayEvent({ method, path, query, headers, body, sourceIp: '198.51.100.7' }));
    },
    /** Waits until `check` holds, polling; fails with `what` after `seconds`. */
    async until(what: string, check: () => Promise<boolean> | boolean, seconds = 60) {
      const ends = Date.now() + seconds * 1_000;
      while (!(await check())) {
        if (sources.errors.length > 0) throw sources.errors[0];
        if (Date.now() > ends)
          throw new Error(
            [
              `not within ${seconds} s: ${what}. The functions' last lines:`,
              ...logs.slice(-15).map(({ functionId, line }) => `${functionId}: ${line.slice(0, 400)}`),
              `Calls refused: ${JSON.stringify(aws.calls.filter((call) => call.decision !== 'Allowed').slice(0, 5))}`,
            ].join('\n'),
          );
        await delay(200);
      }
    },
    /** Mails SES accepted for `to`, parsed as a mail client would. */
    mailsTo(to: string) {
      const mails = aws.ses.sent.filter((mail) => mail.to.some((address) => address.includes(to)));
      return Promise.all(mails.map((mail) => simpleParser(mail.raw)));
    },
    async record(email: string) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: { email }, ConsistentRead: true }),
      );
      return Item;
    },
    async queueDepth(queueId: string) {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: stack.queues.get(queueId)?.url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return {
        visible: Number(Attributes.ApproximateNumberOfMessages),
        invisible: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
      };
    },
    async stop() {
      await events;
      await sources.stop();
      await Promise.all([...functions.values()].map((fn) => fn.stop()));
      await aws.stop();
    },
  };
}

/** Confirmed people, written straight to the table as signups that confirmed would leave them. */
export async function seedConfirmed(path: ProductionPath, count: number, domain: string): Promise<string[]> {
  const now = new Date();
  const emails = Array.from({ length: count }, (_, index) => `person${index}@${domain}`);
  for (const email of emails) {
    const Item = {
      email,
      mailbox: mailboxHashOf(email),
      emailAsEntered: email,
      language: email.length % 2 === 0 ? 'nl' : 'en',
      createdAt: now.toISOString(),
      consentVersion: '1',
      status: 'confirmed',
      expiresAt: Math.floor(now.getTime() / 1_000) + 86_400 * 365,
    };
    await path.db.send(new PutCommand({ TableName: path.tableName, Item }));
  }
  return emails;
}

/**
 * The operator's `announce <folder> --send --table …` at 100 mails a second against this path, as it runs
 * in AWS, to an announcement in both languages: its exit code once it ends, and what it printed so far.
 */
export function startAnnouncement(path: ProductionPath, id: string, request: Partial<AnnounceRequest> = {}) {
  const folder = join(mkdtempSync(join(tmpdir(), 'mandje-aws-announce-')), id);
  mkdirSync(folder);
  writeFileSync(join(folder, 'nl.md'), 'Subject: Mandje is er!\n\nHoi,\n\nMandje is klaar.\n');
  writeFileSync(join(folder, 'en.md'), 'Subject: Mandje is here!\n\nHello,\n\nMandje is ready.\n');
  const { db: client, tableName, stack } = path;
  let printed = '';
  const output = (text: string) => {
    printed += text;
  };
  const done = announce(
    { client, tableName, where: 'emulated', close: async () => {} },
    { kind: 'aws', tableName, region: stack.region },
    { folder, send: true, rate: 100, ...request },
    { out: output, signal: new AbortController().signal, progress: new PassThrough() as never },
    // The queue and the table the stack's outputs name, here the emulators'.
    {
      queue: {
        url: String(stack.resolve(stack.template.Outputs?.AnnouncementQueueUrl?.Value)),
        client: path.sqs,
      },
      limitTableName: String(stack.resolve(stack.template.Outputs?.MailLimitTableName?.Value)),
    },
  );
  return { done, output: () => printed };
}
