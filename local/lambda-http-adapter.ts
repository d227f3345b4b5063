import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { SECURITY_HEADERS } from '../infra/security-headers';

export type HttpApiHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway itself refuses bodies over 10 MB; locally a smaller cap keeps memory in check. */
const MAX_BODY_BYTES = 64 * 1024;

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** API Gateway passes text bodies as they are and base64-encodes everything else. */
const isTextual = (contentType: string | undefined) =>
  !!contentType && /^(text\/|application\/(json|x-www-form-urlencoded|xml))/i.test(contentType);

/** The HTTP API payload format 2.0 event that API Gateway would send for this request. */
export function toHttpApiEvent(request: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const now = new Date();
  const textual = isTextual(headers['content-type']);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.byteLength === 0 ? undefined : body.toString(textual ? 'utf8' : 'base64'),
    isBase64Encoded: body.byteLength > 0 && !textual,
  };
}

/** Serves a Lambda handler over plain HTTP, as API Gateway's HTTP API does in production. */
export function createLambdaHttpAdapter(handler: HttpApiHandler) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let body: Buffer;
    try {
      body = await readBody(request);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      response.writeHead(413, {
        ...SECURITY_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        connection: 'close',
      });
      response.end(JSON.stringify({ error: 'payload_too_large' }));
      return;
    }
    const result = await handler(toHttpApiEvent(request, body));
    const payload = result.body ?? '';
    const bytes = Buffer.from(payload, result.isBase64Encoded ? 'base64' : 'utf8');
    response.writeHead(result.statusCode ?? 200, {
      ...SECURITY_HEADERS,
      ...(result.headers as Record<string, string> | undefined),
      'content-length': bytes.byteLength,
    });
    response.end(bytes);
  };
}
