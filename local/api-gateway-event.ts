import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The event API Gateway's HTTP API (payload format 2.0) hands a Lambda function for one request: built
 * here once, for the runner's adapter, the tests and the bench alike.
 */
export interface ApiGatewayRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The query string, without its `?`. */
  query?: string;
  /** Lower-case names; a repeated header's values joined with commas, as API Gateway does. */
  headers?: Record<string, string>;
  /** Text as it is, or base64 with `isBase64Encoded`; undefined for no body. */
  body?: string;
  isBase64Encoded?: boolean;
  sourceIp?: string;
  /** E.g. `HTTP/1.1`. */
  protocol?: string;
  requestId?: string;
  now?: Date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `requestContext.time` as API Gateway writes it: `21/Nov/2026:10:00:00 +0000`. */
function requestTime(now: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const date = `${two(now.getUTCDate())}/${MONTHS[now.getUTCMonth()]}/${now.getUTCFullYear()}`;
  return `${date}:${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())} +0000`;
}

export function apiGatewayEvent({
  method,
  path,
  query = '',
  headers = {},
  body,
  isBase64Encoded = false,
  sourceIp = '127.0.0.1',
  protocol = 'HTTP/1.1',
  requestId = randomUUID(),
  now = new Date(),
}: ApiGatewayRequest): APIGatewayProxyEventV2 {
  const domainName = headers.host ?? 'localhost';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: { method, path, protocol, sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    body,
    isBase64Encoded,
  };
}
