import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { apiGatewayEvent } from '../../../local/api-gateway-event';

/** An API Gateway HTTP API (payload 2.0) event for POST /api/waitlist, with what a test wants changed. */
export function httpApiEvent(
  overrides: { method?: string; contentType?: string | null; body?: string; isBase64Encoded?: boolean } = {},
): APIGatewayProxyEventV2 {
  const { method = 'POST', contentType = 'application/json', body, isBase64Encoded = false } = overrides;
  return apiGatewayEvent({
    method,
    path: '/api/waitlist',
    headers: contentType === null ? {} : { 'content-type': contentType },
    body,
    isBase64Encoded,
    sourceIp: '203.0.113.7',
    requestId: 'request-1',
    now: new Date(1_795_255_200_000),
  });
}

export const jsonBody = (value: unknown) => JSON.stringify(value);
