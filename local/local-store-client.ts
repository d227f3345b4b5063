/**
 * How anything on this machine talks to the local store (dynalite): one region, throwaway credentials so
 * the AWS SDK never looks further for real ones, and the store's address. The runner, the operator's
 * tools, the benchmarks and the tests all reach the store through here.
 *
 * A store address is the path of the Unix socket the runner's store listens on (inside the data folder,
 * which only its owner may open), or an http:// URL for a DynamoDB-compatible endpoint given explicitly.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unixSocketAgent } from '../functions/store/store-client';

export const LOCAL_STORE_REGION = 'eu-west-1';
export const LOCAL_STORE_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** The waitlist table's name in the local store. */
export const LOCAL_TABLE_NAME = 'mandje-waitlist';
/** The per-mailbox mail limit's table (#contract/abuse-limits) in the local store, with the suppressed mailboxes. */
export const LOCAL_MAIL_LIMIT_TABLE_NAME = 'mandje-mail-limits';
/** The table of the day's visitors (#contract/visit-counting) in the local store: its salt and hashes. */
export const LOCAL_VISITOR_TABLE_NAME = 'mandje-visitors';

/** The SDK's endpoint for a store on a socket: any http URL does, the agent picks the socket. */
const SOCKET_ENDPOINT = 'http://localhost';

/** Whether `address` is a socket path rather than a URL. */
export const isSocketAddress = (address: string): boolean => !/^https?:\/\//.test(address);

/**
 * The environment the Lambda runtime would give the handler, pointed at the local store: what the handler
 * reads when it is first imported, in this process or a child (functions/store/store-client.ts).
 */
export function localStoreEnvironment(address: string, tableName = LOCAL_TABLE_NAME): Record<string, string> {
  const socket = isSocketAddress(address);
  return {
    AWS_ENDPOINT_URL_DYNAMODB: socket ? SOCKET_ENDPOINT : address,
    // Empty rather than absent, so that it also clears a socket set before in this process.
    STORE_SOCKET: socket ? address : '',
    AWS_REGION: LOCAL_STORE_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_STORE_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_STORE_CREDENTIALS.secretAccessKey,
    TABLE_NAME: tableName,
    MAIL_LIMIT_TABLE_NAME: LOCAL_MAIL_LIMIT_TABLE_NAME,
    VISITOR_TABLE_NAME: LOCAL_VISITOR_TABLE_NAME,
  };
}

/** The store address that localStoreEnvironment put in `environment`, if any. */
export function storeAddressFromEnvironment(environment = process.env): string | undefined {
  return environment.STORE_SOCKET || environment.AWS_ENDPOINT_URL_DYNAMODB || undefined;
}

type RequestHandlerOptions = { requestTimeout?: number; connectionTimeout?: number };

/** A DynamoDB client for the local store at `address`; `settings` add retries and timeouts. */
export function localStoreClient(
  address: string,
  settings: Pick<DynamoDBClientConfig, 'maxAttempts'> & { requestHandler?: RequestHandlerOptions } = {},
): DynamoDBClient {
  const socket = isSocketAddress(address);
  return new DynamoDBClient({
    ...settings,
    requestHandler: {
      ...settings.requestHandler,
      ...(socket ? { httpAgent: unixSocketAgent(address) } : {}),
    },
    endpoint: socket ? SOCKET_ENDPOINT : address,
    region: LOCAL_STORE_REGION,
    credentials: LOCAL_STORE_CREDENTIALS,
  });
}

/** The same, as a document client (plain JavaScript values in and out). */
export function localDocumentClient(
  address: string,
  settings?: Parameters<typeof localStoreClient>[1],
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(localStoreClient(address, settings));
}
