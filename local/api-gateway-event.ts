import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** API Gateway's HTTP API event (payload 2.0), for the runner, the tests and the bench. */
export function apiGatewayEvent(request: {
  method: string;
  path: string;
  /** Without its `?`; header names lower-case, a repeated header's values joined with commas. */
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  sourceIp?: string;
  protocol?: string;
  requestId?: string;
  now?: Date;
}): APIGatewayProxyEventV2 {
  const { method, path, headers = {}, now = new Date() } = request;
  const domainName = headers.host ?? 'localhost';
  // As API Gateway writes it: `21/Nov/2026:10:00:00 +0000`.
  const [, day, month, year, time] = now.toUTCString().split(' ');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: request.query ?? '',
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method,
        path,
        protocol: request.protocol ?? 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId ?? randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: `${day}/${month}/${year}:${time} +0000`,
      timeEpoch: now.getTime(),
    },
    body: request.body,
    isBase64Encoded: request.isBase64Encoded ?? false,
  };
}
