import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import {
  CACHE_CONTROL,
  cacheControlFor,
  fileTypeOf,
  MIN_COMPRESSIBLE_BYTES,
  type Route,
  routeRequest,
  type SiteMap,
  siteMapOf,
} from '#contract/site-serving';

type ContentEncoding = 'br' | 'gzip' | 'identity';

interface Representation {
  body: Buffer;
  etag: string;
}

interface StaticFile {
  contentType: string;
  lastModified: Date;
  representations: { identity: Representation; br?: Representation; gzip?: Representation };
  variesByEncoding: boolean;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Each encoding is a different representation, so it gets its own strong validator. */
const etagOf = (hash: string, encoding: ContentEncoding) =>
  encoding === 'identity' ? `"${hash}"` : `"${hash}-${encoding}"`;

async function loadStaticFile(path: string, modified: Date): Promise<StaticFile> {
  const body = await readFile(path);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  const type = fileTypeOf(path);
  const file: StaticFile = {
    contentType: type?.contentType ?? 'application/octet-stream',
    lastModified: modified,
    representations: { identity: { body, etag: etagOf(hash, 'identity') } },
    variesByEncoding: false,
  };
  if (!type?.compressible || body.byteLength < MIN_COMPRESSIBLE_BYTES) return file;
  // The strongest settings: each file is compressed once.
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }),
    gzipAsync(body, { level: zlibConstants.Z_BEST_COMPRESSION }),
  ]);
  for (const [encoding, compressed] of [
    ['br', br],
    ['gzip', gz],
  ] as const) {
    if (compressed.byteLength >= body.byteLength) continue;
    file.representations[encoding] = { body: compressed, etag: etagOf(hash, encoding) };
    file.variesByEncoding = true;
  }
  return file;
}

/** Far more than a build has; a folder rebuilt many times over simply starts afresh. */
const MAX_CACHED_FILES = 1_000;

/**
 * The built files in memory, each read and compressed once and kept until its modification time or size
 * changes (a rebuild). dist/ is a few hundred kilobytes: cheaper than compressing per request.
 */
export function createStaticFileCache() {
  const cache = new Map<string, { version: string; file: Promise<StaticFile> }>();

  /** `path` must already be checked to be a regular file inside the served folder. */
  function get(path: string, stats: { mtime: Date; size: number }): Promise<StaticFile> {
    const version = `${stats.mtime.getTime()}:${stats.size}`;
    const cached = cache.get(path);
    if (cached?.version === version) return cached.file;
    if (cache.size >= MAX_CACHED_FILES) cache.clear();
    const file = loadStaticFile(path, stats.mtime);
    cache.set(path, { version, file });
    // A failed read is not kept: the next request tries again.
    file.catch(() => {
      if (cache.get(path)?.file === file) cache.delete(path);
    });
    return file;
  }

  return { get };
}

/** Every regular file under `root` (symbolic links are skipped: they could point anywhere). */
async function listRegularFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** The path of a request's target, still percent-encoded, and its query; undefined if it has no path. */
function rawPathOf(requestUrl: string): { rawPath: string; query: string } | undefined {
  const [target = ''] = requestUrl.split('#', 1);
  const queryStart = target.indexOf('?');
  const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
  // `*` and absolute-form targets: no browser sends them for a page.
  if (!rawPath.startsWith('/')) return undefined;
  return { rawPath, query: queryStart === -1 ? '' : target.slice(queryStart) };
}

const isInside = (root: string, path: string) => path.startsWith(root + sep);

/** The regular file at `key` in dist/; its real path must be inside it too, so a link out serves nothing. */
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
function negotiateEncoding(acceptEncoding: string | undefined, file: StaticFile): ContentEncoding {
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

/**
 * Serves the built page by production's rules (contract/site-serving.ts): each page at its one address
 * (other spellings 301 there), files with CloudFront's compression and caching, anything else the
 * not-found page with status 404. Nothing outside `distDir` is ever read for a request.
 */
export function createStaticSite(distDir: string) {
  const cache = createStaticFileCache();
  // The real path, so symbolic links inside the folder are compared with what they point to.
  const rootPromise = realpath(resolve(distDir)).catch(() => resolve(distDir));
  let siteMap: Promise<SiteMap> | undefined;
  let readAt = 0;
  // Read again when asked for fresh (after a rebuild), at most once a second, so requests for missing
  // files cannot make it list the folder each time.
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
    async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
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

    /** Reads and compresses every file ahead of the first visitor, so no request waits for Brotli. */
    async warmUp(): Promise<void> {
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
