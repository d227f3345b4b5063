import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { SECURITY_HEADERS } from '../infra/security-headers';
import {
  type ContentEncoding,
  createStaticFileCache,
  listRegularFiles,
  type StaticFile,
  type StaticFileCache,
} from './static-files';

/** Hashed build assets never change under their name; everything else is revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const cacheControlFor = (urlPath: string) => (urlPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);

/**
 * The URL path as segments, or undefined for anything a browser would never send: no leading slash
 * (`*`, absolute-form), broken percent-encoding, NUL bytes, backslashes or `.`/`..` segments. It is
 * decoded exactly once, so `%252e%252e` stays the harmless name `%2e%2e`.
 */
export function parseUrlPath(requestUrl: string): string | undefined {
  const rawPath = requestUrl.split(/[?#]/, 1)[0] ?? '';
  if (!rawPath.startsWith('/')) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return path;
}

/**
 * Where CloudFront's viewer-request function would look: folder paths and extensionless paths are pages
 * (`/privacy` → `/privacy/index.html`), anything else is a file name.
 */
function candidatePath(urlPath: string): string {
  if (urlPath.endsWith('/')) return `${urlPath}index.html`;
  const lastSegment = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return lastSegment.includes('.') ? urlPath : `${urlPath}/index.html`;
}

const isInside = (root: string, path: string) => path.startsWith(root + sep);

/**
 * The real path of the regular file a URL path names, or undefined. The real path (symbolic links
 * resolved) must still be inside the served folder, so a link pointing out of it serves nothing.
 */
async function resolveFile(
  root: string,
  urlPath: string,
): Promise<{ path: string; mtime: Date; size: number } | undefined> {
  const candidate = join(root, candidatePath(urlPath));
  if (!isInside(root, candidate)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real)) return undefined;
    const stats = await stat(real);
    return stats.isFile() ? { path: real, mtime: stats.mtime, size: stats.size } : undefined;
  } catch {
    return undefined;
  }
}

/** Brotli when the client takes it, else gzip, else the bytes as they are; `q=0` refuses one. */
export function negotiateEncoding(acceptEncoding: string | undefined, file: StaticFile): ContentEncoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (encoding: string) => (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0;
  for (const encoding of ['br', 'gzip'] as const) {
    if (file.representations[encoding] && takes(encoding)) return encoding;
  }
  return 'identity';
}

/** Whether the client's copy is current: If-None-Match first, If-Modified-Since only without it. */
function isNotModified(request: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // Weak comparison, as RFC 9110 prescribes for If-None-Match.
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const ifModifiedSince = Date.parse(request.headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return (
    !Number.isNaN(ifModifiedSince) && Math.floor(lastModified.getTime() / 1000) * 1000 <= ifModifiedSince
  );
}

function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: StaticFile,
  { status, cacheControl }: { status: 200 | 404; cacheControl: string },
): void {
  const encoding = negotiateEncoding(request.headers['accept-encoding'], file);
  const { body, etag } = file.representations[encoding] ?? file.representations.identity;
  const validators = {
    ...SECURITY_HEADERS,
    'cache-control': cacheControl,
    etag,
    'last-modified': file.lastModified.toUTCString(),
    ...(file.variesByEncoding ? { vary: 'accept-encoding' } : {}),
  };
  if (status === 200 && isNotModified(request, etag, file.lastModified)) {
    response.writeHead(304, validators).end();
    return;
  }
  response.writeHead(status, {
    ...validators,
    'content-type': file.contentType,
    'content-length': body.byteLength,
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
  });
  // Node sends no body for HEAD by itself; the headers stay those of GET.
  response.end(request.method === 'HEAD' ? undefined : body);
}

function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

export interface StaticSite {
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Reads and compresses every file ahead of the first visitor, so no request waits for Brotli. */
  warmUp(): Promise<void>;
}

/**
 * Serves the built page the way production does: `/` and `/en/` are the prerendered pages, folder paths
 * are pages, files are files with CloudFront's compression and caching, `/en` gets its slash, and anything
 * else is the not-found page with status 404. Nothing outside `distDir` is ever read for a request.
 */
export function createStaticSite(
  distDir: string,
  cache: StaticFileCache = createStaticFileCache(),
): StaticSite {
  // The real path, so symbolic links inside the folder are compared with what they point to.
  const rootPromise = realpath(resolve(distDir)).catch(() => resolve(distDir));

  async function sendNotFound(request: IncomingMessage, response: ServerResponse, root: string) {
    const page = await resolveFile(root, '/404.html');
    if (!page) return sendText(response, 404, 'Not Found');
    sendFile(request, response, await cache.get(page.path, page), { status: 404, cacheControl: REVALIDATE });
  }

  return {
    async serve(request, response) {
      const root = await rootPromise;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return sendText(response, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      }
      const urlPath = parseUrlPath(request.url ?? '/');
      if (urlPath === undefined) return sendText(response, 400, 'Bad Request');
      if (urlPath === '/en') {
        response
          .writeHead(301, {
            ...SECURITY_HEADERS,
            location: '/en/',
            'cache-control': REVALIDATE,
            'content-length': 0,
          })
          .end();
        return;
      }
      const found = await resolveFile(root, urlPath);
      if (!found) return sendNotFound(request, response, root);
      const file = await cache.get(found.path, found);
      sendFile(request, response, file, { status: 200, cacheControl: cacheControlFor(urlPath) });
    },

    async warmUp() {
      const root = await rootPromise;
      const paths = await listRegularFiles(root).catch(() => []);
      await Promise.all(
        // A file that cannot be read now is simply read when it is first asked for.
        paths.map((path) =>
          stat(path)
            .then((stats) => cache.get(path, stats))
            .catch(() => {}),
        ),
      );
    },
  };
}
