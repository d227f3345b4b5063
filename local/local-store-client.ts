// A store is a Unix socket (only who may open its folder reads it) or an http:// URL; credentials are fake.
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const LOCAL_TABLE_NAME = 'mandje-waitlist';
export const LOCAL_MAIL_LIMIT_TABLE_NAME = 'mandje-mail-limits';
export const LOCAL_VISITOR_TABLE_NAME = 'mandje-visitors';

/** The environment the Lambda runtime would give the handler (functions/store/store-client.ts), pointed here. */
export function localStoreEnvironment(address: string, tableName = LOCAL_TABLE_NAME) {
  const socket = !/^https?:\/\//.test(address);
  return {
    // For a store on a socket any http URL does: the agent picks the socket.
    AWS_ENDPOINT_URL_DYNAMODB: socket ? 'http://localhost' : address,
    // Empty rather than absent, so that it also clears a socket set before in this process.
    STORE_SOCKET: socket ? address : '',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
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
  const env = localStoreEnvironment(address);
  const httpAgent = Object.assign(new Agent({ keepAlive: true }), {
    createConnection: () => connect(address),
  });
  return new DynamoDBClient({
    ...settings,
    requestHandler: {
      ...settings.requestHandler,
      ...(env.STORE_SOCKET && { httpAgent }),
    },
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
}

export const localDocumentClient = (address: string, settings?: Parameters<typeof localStoreClient>[1]) =>
  DynamoDBDocumentClient.from(localStoreClient(address, settings));
