/**
 * One cold start, in the fresh Node process this file runs in. Plain JavaScript, so no TypeScript loader
 * sits between the process start and what is measured.
 *
 *   node bench/lambda-cold-start.mjs handler <bundle.mjs> <email>   the built handler serves one signup
 *   node bench/lambda-cold-start.mjs floor <email>                  the SDK alone sends one PutItem
 *
 * The store comes from the environment (AWS_ENDPOINT_URL_DYNAMODB, TABLE_NAME), as in Lambda. Prints one
 * line `COLD_START {...}` with times from performance.now(), which counts from the process's start.
 */
import { pathToFileURL } from 'node:url';

const startedMs = performance.now();
const [mode, ...rest] = process.argv.slice(2);

/** An API Gateway HTTP API (payload 2.0) event for a signup, as the deployed function receives it. */
function signupEvent(email) {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/api/waitlist',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'mandje.nl',
      domainPrefix: 'mandje',
      http: {
        method: 'POST',
        path: '/api/waitlist',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'bench',
      },
      requestId: `cold-start-${process.pid}`,
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: JSON.stringify({ email, language: 'nl' }),
    isBase64Encoded: false,
  };
}

async function handlerColdStart(bundle, email) {
  const { handler } = await import(pathToFileURL(bundle).href);
  const response = await handler(signupEvent(email));
  return response.statusCode;
}

async function floorColdStart(email) {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  await client.send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: {
        email,
        emailAsEntered: email,
        language: 'nl',
        createdAt: new Date().toISOString(),
        consentVersion: 'bench',
      },
      ConditionExpression: 'attribute_not_exists(email)',
    }),
  );
  return 201;
}

const status = mode === 'handler' ? await handlerColdStart(rest[0], rest[1]) : await floorColdStart(rest[0]);
const servedMs = performance.now();
process.stdout.write(`COLD_START ${JSON.stringify({ status, startedMs, servedMs })}\n`);
process.exit(0);
