/**
 * How anything on this machine talks to the local store (dynalite): one region, throwaway credentials so
 * the AWS SDK never looks further for real ones, and the store's endpoint. The runner, the operator's
 * tools, the benchmarks and the tests all reach the store through here.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const LOCAL_STORE_REGION = 'eu-west-1';
export const LOCAL_STORE_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** The waitlist table's name in the local store. */
export const LOCAL_TABLE_NAME = 'mandje-waitlist';

/**
 * The environment the Lambda runtime would give the handler, pointed at the local store: what the handler
 * reads when it is first imported, in this process or a child.
 */
export function localStoreEnvironment(
  endpoint: string,
  tableName = LOCAL_TABLE_NAME,
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: LOCAL_STORE_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_STORE_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_STORE_CREDENTIALS.secretAccessKey,
    TABLE_NAME: tableName,
  };
}

/** A DynamoDB client for the local store at `endpoint`; `settings` add retries and timeouts. */
export function localStoreClient(
  endpoint: string,
  settings: Pick<DynamoDBClientConfig, 'maxAttempts' | 'requestHandler'> = {},
): DynamoDBClient {
  return new DynamoDBClient({
    ...settings,
    endpoint,
    region: LOCAL_STORE_REGION,
    credentials: LOCAL_STORE_CREDENTIALS,
  });
}

/** The same, as a document client (plain JavaScript values in and out). */
export function localDocumentClient(
  endpoint: string,
  settings?: Pick<DynamoDBClientConfig, 'maxAttempts' | 'requestHandler'>,
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(localStoreClient(endpoint, settings));
}
