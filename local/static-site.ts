import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import {
  CACHE_CONTROL,
  cacheControlFor,
  type Route,
  routeRequest,
  type SiteMap,
  siteMapOf,
} from '#contract/site-serving';
import {
  type ContentEncoding,
  createStaticFileCache,
  listRegularFiles,
  type StaticFile,
  type StaticFileCache,
} from './static-files';

/** The path part of a request's target, as sent (still percent-encoded), or undefined if it has none. */
function rawPathOf(requestUrl: string): { rawPath: string; query: string } | undefined {
  const [target = ''] = requestUrl.split('#', 1);
  const queryStart = target.indexOf('?');
  const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
  // `*` and absolute-form targets: no browser sends them for a page.
  if (!rawPath.startsWith('/')) return undefined;
  return { rawPath, query: queryStart === -1 ? '' : target.slice(queryStart) };
}

const isInside = (root: string, path: string) => path.startsWith(root + sep);

/**
 * The real path of the regular file at `key` (a path in dist/), or undefined. The real path (symbolic
 * links resolved) must still be inside the served folder, so a link pointing out of it serves nothing.
 */
async function resolveFile(
  root: string,
  key: string,
): Promise<{ path: string; mtime: Date; size: number } | undefined> {
  const candidate = join(root, key);
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
 * Serves the built page the way production does, by the same rules (contract/site-serving.ts): each page at
 * its one address (other spellings 301 there), files with CloudFront's compression and caching, anything
 * else the not-found page in the path's language with status 404. Nothing outside `distDir` is ever read
 * for a request.
 */
export function createStaticSite(
  distDir: string,
  cache: StaticFileCache = createStaticFileCache(),
): StaticSite {
  // The real path, so symbolic links inside the folder are compared with what they point to.
  const rootPromise = realpath(resolve(distDir)).catch(() => resolve(distDir));
  let siteMap: Promise<SiteMap> | undefined;
  let readAt = 0;
  /**
   * The pages of dist/; read again when asked for fresh (a page gone or come with a rebuild), at most
   * once a second, so a stream of requests for missing files cannot make it list the folder each time.
   */
  const readSiteMap = (root: string, fresh = false) => {
    if (!siteMap || (fresh && Date.now() - readAt > 1_000)) {
      readAt = Date.now();
      siteMap = listRegularFiles(root)
        .catch(() => [])
        .then((paths) => siteMapOf(paths.map((path) => relative(root, path).split(sep).join('/'))));
    }
    return siteMap;
  };

  async function send(request: IncomingMessage, response: ServerResponse, root: string, route: Route) {
    if (route.kind === 'redirect') {
      const { query } = rawPathOf(request.url ?? '/') ?? { query: '' };
      response
        .writeHead(301, {
          location: route.location + query,
          'cache-control': CACHE_CONTROL.revalidate,
          'content-length': 0,
        })
        .end();
      return true;
    }
    const found = await resolveFile(root, route.key);
    if (!found) return false;
    const file = await cache.get(found.path, found);
    sendFile(request, response, file, { status: route.status, cacheControl: cacheControlFor(route.key) });
    return true;
  }

  return {
    async serve(request, response) {
      const root = await rootPromise;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return sendText(response, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      }
      const target = rawPathOf(request.url ?? '/');
      if (target === undefined) return sendText(response, 400, 'Bad Request');
      let route = routeRequest(target.rawPath, await readSiteMap(root));
      if (await send(request, response, root, route)) return;
      // A page that has gone (or come) since the site was last read: read it again, once.
      route = routeRequest(target.rawPath, await readSiteMap(root, true));
      if (await send(request, response, root, route)) return;
      // No such file: what the bucket answers, the not-found page with status 404.
      const notFound: Route = { kind: 'file', key: (await readSiteMap(root)).notFound.nl, status: 404 };
      if (await send(request, response, root, notFound)) return;
      sendText(response, 404, 'Not Found');
    },

    async warmUp() {
      const root = await rootPromise;
      const paths = await listRegularFiles(root).catch(() => []);
      await Promise.all([
        readSiteMap(root, true),
        // A file that cannot be read now is simply read when it is first asked for.
        ...paths.map((path) =>
          stat(path)
            .then((stats) => cache.get(path, stats))
            .catch(() => {}),
        ),
      ]);
    },
  };
}
