/**
 * The real waitlist handler for unit tests, imported as Lambda imports it (TABLE_NAME and VISITOR_TABLE_NAME
 * set, so its module creates its DynamoDB client), with the document client mocked and its log captured.
 * Importing this module resets both before each test.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, vi } from 'vitest';
import { capturedLogLines } from './captured-log';

vi.stubEnv('TABLE_NAME', 'waitlist-test');
vi.stubEnv('VISITOR_TABLE_NAME', 'visitors-test');
export const { handler, STORE_DEADLINE_MS } = await import('../../../functions/waitlist/handler');

/** Every command the handler sends goes through this mock; a test says how the store answers. */
export const dynamo = mockClient(DynamoDBDocumentClient);

/** Each line the handler wrote in this test, so tests can check what it logs and leaks. */
export const logLines = capturedLogLines();

/** Forgets what the handler logged so far (for tests that call it many times, one case each). */
export function clearLogLines(): void {
  logLines.length = 0;
}

beforeEach(() => {
  dynamo.reset();
});
