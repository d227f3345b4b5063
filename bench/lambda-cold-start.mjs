/**
 * One cold start, in the fresh Node process this file runs in. Plain JavaScript, so no TypeScript loader
 * sits between the process start and what is measured (the Node here cannot import TypeScript itself).
 *
 *   node bench/lambda-cold-start.mjs handler <bundle.mjs> <event JSON>   the built handler serves one signup
 *   node bench/lambda-cold-start.mjs floor <email>                       the SDK alone sends one PutItem
 *
 * The event is API Gateway's, built by bench/lambda.ts with the runner's builder (local/api-gateway-event.ts).
 * bench/lambda.ts runs this with --enable-source-maps, as the stack runs the functions. The store comes from
 * the environment (AWS_ENDPOINT_URL_DYNAMODB, TABLE_NAME), as in Lambda. Prints one line `COLD_START {...}`
 * with times from performance.now(), which counts from the process's start.
 */
import { pathToFileURL } from 'node:url';

const startedMs = performance.now();
const [mode, ...rest] = process.argv.slice(2);

async function handlerColdStart(bundle, event) {
  const { handler } = await import(pathToFileURL(bundle).href);
  const response = await handler(JSON.parse(event));
  return response.statusCode;
}

async function floorColdStart(email) {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, PutCommand } = await import('@aws-sdk/lib-dynamodb');
  // On one machine the store listens on a Unix socket (STORE_SOCKET), reached as the handler reaches it.
  const socketPath = process.env.STORE_SOCKET;
  let requestHandler;
  if (socketPath) {
    const [{ Agent }, { connect }] = await Promise.all([import('node:http'), import('node:net')]);
    const httpAgent = new Agent({ keepAlive: true });
    httpAgent.createConnection = () => connect(socketPath);
    requestHandler = { httpAgent };
  }
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ requestHandler }));
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
