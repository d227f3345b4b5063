import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { apiGatewayEvent } from './api-gateway-event';

// Above the handler's MAX_REQUEST_BYTES, so it answers 413 between the two, as behind API Gateway's 10 MB.
export const MAX_BODY_BYTES = 64 * 1024;

/** A request target's path and its query (without the `?`), as they were sent. */
export function splitTarget(target = '/'): [string, string] {
  const queryAt = target.indexOf('?');
  return queryAt === -1 ? [target, ''] : [target.slice(0, queryAt), target.slice(queryAt + 1)];
}

// Past the cap the bytes are read and dropped, so the client gets the answer, not a reset. Never rejects.
function readBody(request: IncomingMessage): Promise<Buffer | 'too_large' | 'aborted'> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve('too_large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else resolve('too_large');
    });
    request.once('end', () => resolve(Buffer.concat(chunks)));
    // The client closed the connection mid-body; resolving again later changes nothing.
    request.on('error', () => resolve('aborted'));
    request.once('close', () => request.complete || resolve('aborted'));
  });
}

/** Serves a Lambda handler over plain HTTP, as API Gateway's HTTP API does in production. */
export function createLambdaHttpAdapter(
  handler: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>,
) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request);
    if (body === 'too_large') {
      // The rest of the body is not wanted.
      request.resume();
      const refusal = JSON.stringify({ error: 'payload_too_large' });
      return void response
        .writeHead(413, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(refusal),
          'cache-control': 'no-store',
          connection: 'close',
        })
        .end(refusal);
    }
    // Nobody is waiting for an answer, and half a body is not a request: the handler never sees it.
    if (body === 'aborted') return;

    // The path as sent, as API Gateway's rawPath: a spelling that would resolve to a route is no route.
    const [path, query] = splitTarget(request.url);
    // A repeated header's values joined with commas, as API Gateway does (Node's `headers` keeps one).
    const headers = Object.fromEntries(
      Object.entries(request.headersDistinct).map(([name, values = []]) => [name, values.join(',')]),
    );
    // API Gateway passes text bodies as they are and base64-encodes the rest, bytes not valid UTF-8 too.
    const textual =
      /^(text\/|application\/(json|x-www-form-urlencoded|xml))/i.test(headers['content-type'] ?? '') &&
      isUtf8(body);
    const result = await handler(
      apiGatewayEvent({
        method: request.method ?? 'GET',
        path,
        query,
        headers,
        body: body.byteLength === 0 ? undefined : body.toString(textual ? 'utf8' : 'base64'),
        isBase64Encoded: body.byteLength > 0 && !textual,
        sourceIp: request.socket.remoteAddress,
        protocol: `HTTP/${request.httpVersion}`,
      }),
    );
    // The client may have left while the handler worked; what was stored stays stored, unanswered.
    if (response.destroyed) return;
    const bytes = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
    // A handler answers HEAD without a body; a length of 0 would misstate GET's, so none is sent.
    const head = request.method === 'HEAD';
    response.writeHead(result.statusCode ?? 200, {
      ...(result.headers as Record<string, string> | undefined),
      ...(head && bytes.byteLength === 0 ? {} : { 'content-length': bytes.byteLength }),
    });
    response.end(head ? undefined : bytes);
  };
}
