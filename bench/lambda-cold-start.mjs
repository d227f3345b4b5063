// One cold start (`handler <bundle.mjs> <event JSON>` or `floor <email>`), in plain JavaScript so that no
// TypeScript loader is measured. Prints `COLD_START {...}` with times since the process's start.
import { pathToFileURL } from 'node:url';

const startedMs = performance.now();
const [mode, bundleOrEmail, event] = process.argv.slice(2);
let status = 201;
if (mode === 'handler') {
  const { handler } = await import(pathToFileURL(bundleOrEmail).href);
  status = (await handler(JSON.parse(event))).statusCode;
} else {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, PutCommand } = await import('@aws-sdk/lib-dynamodb');
  // The bench's store, at AWS_ENDPOINT_URL_DYNAMODB, reached as the handler reaches it.
  const email = bundleOrEmail;
  await DynamoDBDocumentClient.from(new DynamoDBClient({})).send(
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
}
const servedMs = performance.now();
process.stdout.write(`COLD_START ${JSON.stringify({ status, startedMs, servedMs })}\n`);
process.exit(0);
