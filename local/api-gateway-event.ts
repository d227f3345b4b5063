import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** What API Gateway's HTTP API event (payload 2.0) is built from, for the runner, the tests and the bench. */
interface ApiGatewayRequest {
  method: string;
  path: string;
  /** Without its `?`. */
  query?: string;
  /** Lower-case names; a repeated header's values joined with commas. */
  headers?: Record<string, string>;
  /** Text as it is, or base64 with `isBase64Encoded`. */
  body?: string;
  isBase64Encoded?: boolean;
  sourceIp?: string;
  protocol?: string;
  requestId?: string;
  now?: Date;
}

/** `requestContext.time` as API Gateway writes it: `21/Nov/2026:10:00:00 +0000`. */
function requestTime(now: Date): string {
  const [, day, month, year, time] = now.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
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
