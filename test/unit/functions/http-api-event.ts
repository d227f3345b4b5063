import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** An API Gateway HTTP API (payload 2.0) event for POST /api/waitlist, with what a test wants changed. */
export function httpApiEvent(
  overrides: { method?: string; contentType?: string | null; body?: string; isBase64Encoded?: boolean } = {},
): APIGatewayProxyEventV2 {
  const { method = 'POST', contentType = 'application/json', body, isBase64Encoded = false } = overrides;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/api/waitlist',
    rawQueryString: '',
    headers: contentType === null ? {} : { 'content-type': contentType },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'mandje.nl',
      domainPrefix: 'mandje',
      http: {
        method,
        path: '/api/waitlist',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'test',
      },
      requestId: 'request-1',
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:10:00:00 +0000',
      timeEpoch: 1_795_255_200_000,
    },
    body,
    isBase64Encoded,
  };
}

export const jsonBody = (value: unknown) => JSON.stringify(value);
