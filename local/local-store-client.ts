// Throwaway credentials, so the AWS SDK never looks for real ones. A store's address is its Unix socket's
// path, or an http:// URL.
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unixSocketAgent } from '../functions/store/store-client';

const REGION = 'eu-west-1';
const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export const LOCAL_TABLE_NAME = 'mandje-waitlist';
export const LOCAL_MAIL_LIMIT_TABLE_NAME = 'mandje-mail-limits';
export const LOCAL_VISITOR_TABLE_NAME = 'mandje-visitors';

/** For a store on a socket any http URL does: the agent picks the socket. */
const SOCKET_ENDPOINT = 'http://localhost';

const isSocketAddress = (address: string) => !/^https?:\/\//.test(address);

/** The environment the Lambda runtime would give the handler (functions/store/store-client.ts), pointed here. */
export function localStoreEnvironment(address: string, tableName = LOCAL_TABLE_NAME): Record<string, string> {
  const socket = isSocketAddress(address);
  return {
    AWS_ENDPOINT_URL_DYNAMODB: socket ? SOCKET_ENDPOINT : address,
    // Empty rather than absent, so that it also clears a socket set before in this process.
    STORE_SOCKET: socket ? address : '',
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    TABLE_NAME: tableName,
    MAIL_LIMIT_TABLE_NAME: LOCAL_MAIL_LIMIT_TABLE_NAME,
    VISITOR_TABLE_NAME: LOCAL_VISITOR_TABLE_NAME,
  };
}

export const storeAddressFromEnvironment = (): string | undefined =>
  process.env.STORE_SOCKET || process.env.AWS_ENDPOINT_URL_DYNAMODB || undefined;

export function localStoreClient(
  address: string,
  settings: Pick<DynamoDBClientConfig, 'maxAttempts'> & {
    requestHandler?: { requestTimeout?: number; connectionTimeout?: number };
  } = {},
): DynamoDBClient {
  const socket = isSocketAddress(address);
  return new DynamoDBClient({
    ...settings,
    requestHandler: { ...settings.requestHandler, ...(socket && { httpAgent: unixSocketAgent(address) }) },
    endpoint: socket ? SOCKET_ENDPOINT : address,
    region: REGION,
    credentials: CREDENTIALS,
  });
}

export const localDocumentClient = (address: string, settings?: Parameters<typeof localStoreClient>[1]) =>
  DynamoDBDocumentClient.from(localStoreClient(address, settings));
