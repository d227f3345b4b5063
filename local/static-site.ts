import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { SECURITY_HEADERS } from '../infra/security-headers';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Hashed build assets never change under their name; everything else is revalidated. */
function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The file a URL path maps to, or undefined; pages are directories with an index.html. */
async function resolveFile(root: string, urlPath: string): Promise<string | undefined> {
  const candidate = normalize(join(root, urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath));
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  try {
    return (await stat(candidate)).isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

async function send(response: ServerResponse, method: string, file: string, status: number, cache: string) {
  const { size } = await stat(file);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': cache,
  });
  if (method === 'HEAD') response.end();
  else createReadStream(file).pipe(response);
}

/**
 * Serves the built page the way production does: `/` and `/en/` are the prerendered pages, files are
 * files, `/en` gets its slash, and anything else is the not-found page with status 404.
 */
export function createStaticSiteHandler(distDir: string) {
  const root = normalize(distDir);
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      response.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD', 'content-type': 'text/plain' });
      response.end('Method Not Allowed');
      return;
    }
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      urlPath = '/404';
    }
    if (urlPath === '/en') {
      response.writeHead(301, { ...SECURITY_HEADERS, location: '/en/' });
      response.end();
      return;
    }
    const file = await resolveFile(root, urlPath);
    if (file) return send(response, method, file, 200, cacheControlFor(urlPath));
    return send(response, method, join(root, '404.html'), 404, 'no-cache');
  };
}
