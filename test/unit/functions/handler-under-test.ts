/**
 * The real API handler for unit tests, imported as Lambda imports it (TABLE_NAME and VISITOR_TABLE_NAME
 * set, so its module creates its DynamoDB client), with the document client mocked and its log captured.
 * Importing this module resets both before each test.
 */
import { functionUnderTest } from './function-under-test';

const waitlist = await functionUnderTest(
  { TABLE_NAME: 'waitlist-test', VISITOR_TABLE_NAME: 'visitors-test' },
  () => import('../../../functions/api/handler'),
);
export const { handler } = waitlist.module;

/** Every command the handler sends goes through this mock; a test says how the store answers. */
export const { dynamo } = waitlist;

/** Each line the handler wrote in this test, so tests can check what it logs and leaks. */
export const { logLines } = waitlist;
