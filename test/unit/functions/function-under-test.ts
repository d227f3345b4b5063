import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, vi } from 'vitest';
import { capturedLogLines } from './captured-log';

/**
 * A function's module for unit tests, imported as Lambda imports it: `environment` set first, so the
 * module creates its DynamoDB client as it would in a container; the document client mocked (reset before
 * each test) and the function's log captured (emptied before each test).
 */
export async function functionUnderTest<Module>(
  environment: Record<string, string>,
  load: () => Promise<Module>,
) {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  const module = await load();
  const dynamo = mockClient(DynamoDBDocumentClient);
  const logLines = capturedLogLines();
  beforeEach(() => {
    dynamo.reset();
  });
  return { module, dynamo, logLines };
}
