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

type Encoding = 'br' | 'gzip' | 'identity';
type StaticFile = Awaited<ReturnType<typeof loadStaticFile>>;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function loadStaticFile(path: string, lastModified: Date) {
  const body = await readFile(path);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  const type = fileTypeOf(path);
  const representations: Partial<Record<Encoding, { body: Buffer; etag: string }>> = {};
  if (type?.compressible && body.byteLength >= MIN_COMPRESSIBLE_BYTES) {
    // The strongest settings: each file is compressed once.
    const brotli = { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY };
    const [br, gzip] = await Promise.all([
      brotliAsync(body, { params: { ...brotli, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
      gzipAsync(body, { level: zlibConstants.Z_BEST_COMPRESSION }),
    ]);
    // Each encoding is a different representation, so it gets its own strong validator.
    for (const [encoding, compressed] of Object.entries({ br, gzip }))
      if (compressed.byteLength < body.byteLength)
        representations[encoding as Encoding] = { body: compressed, etag: `"${hash}-${encoding}"` };
  }
  return {
    contentType: type?.contentType ?? 'application/octet-stream',
    lastModified,
    representations: { ...representations, identity: { body, etag: `"${hash}"` } },
  };
}

// Each file is read and compressed once, and kept until its time or size changes (a rebuild): dist/ is small.
export function createStaticFileCache() {
  const cache = new Map<string, { version: string; file: Promise<StaticFile> }>();
  return {
    /** `path` must already be checked to be a regular file inside the served folder. */
    get(path: string, stats: { mtime: Date; size: number }): Promise<StaticFile> {
      const version = `${stats.mtime.getTime()}:${stats.size}`;
      const cached = cache.get(path);
      if (cached?.version === version) return cached.file;
      // Far more than a build has; a folder rebuilt many times over simply starts afresh.
      if (cache.size >= 1_000) cache.clear();
      const file = loadStaticFile(path, stats.mtime);
      cache.set(path, { version, file });
      // A failed read is not kept: the next request tries again.
      file.catch(() => {
        if (cache.get(path)?.file === file) cache.delete(path);
      });
      return file;
    },
  };
}

/** Every regular file under `root` (symbolic links are skipped: they could point anywhere). */
async function listRegularFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Brotli when the client takes it, else gzip, else the bytes as they are; `q=0` refuses one. */
function negotiateEncoding(acceptEncoding: string | undefined, file: StaticFile): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (encoding: string) => (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0;
  return (
    (['br', 'gzip'] as const).find((encoding) => file.representations[encoding] && takes(encoding)) ??
    'identity'
  );
}

/** Whether the client's copy is current: If-None-Match first, If-Modified-Since only without it. */
function isNotModified(request: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // Weak comparison, as RFC 9110 prescribes for If-None-Match.
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  // HTTP dates have whole seconds; a missing or malformed date parses as NaN, which no time is before.
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function sendText(response: ServerResponse, status: number, text: string, headers = {}) {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

// The built page by production's rules (contract/site-serving.ts), with CloudFront's compression and caching.
// Nothing outside `distDir` is ever read for a request.
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

  return {
    async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
      const root = await rootPromise;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return sendText(response, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      const [, rawPath = '', query = ''] = /^([^?#]*)(\?[^#]*)?/.exec(request.url ?? '/') ?? [];
      // `*` and absolute-form targets: no browser sends them for a page.
      if (!rawPath.startsWith('/')) return sendText(response, 400, 'Bad Request');
      // False when the route's file is not a regular file in dist/ (its real path inside it too).
      const send = async (route: Route) => {
        if (route.kind === 'redirect') {
          const location = route.location + query;
          response
            .writeHead(301, { location, 'cache-control': CACHE_CONTROL.revalidate, 'content-length': 0 })
            .end();
          return true;
        }
        const isInside = (path: string) => path.startsWith(root + sep);
        const candidate = join(root, route.key);
        const real = isInside(candidate) ? await realpath(candidate).catch(() => undefined) : undefined;
        const stats = real && isInside(real) ? await stat(real).catch(() => undefined) : undefined;
        if (!real || !stats?.isFile()) return false;
        const file = await cache.get(real, stats);
        const encoding = negotiateEncoding(request.headers['accept-encoding'], file);
        const { body, etag } = file.representations[encoding] ?? file.representations.identity;
        const validators = {
          'cache-control': cacheControlFor(route.key),
          etag,
          'last-modified': file.lastModified.toUTCString(),
          ...(file.representations.br || file.representations.gzip ? { vary: 'accept-encoding' } : {}),
        };
        if (route.status === 200 && isNotModified(request, etag, file.lastModified)) {
          response.writeHead(304, validators).end();
          return true;
        }
        response.writeHead(route.status, {
          ...validators,
          'content-type': file.contentType,
          'content-length': body.byteLength,
          ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        });
        // Node sends no body for HEAD by itself; the headers stay those of GET.
        response.end(request.method === 'HEAD' ? undefined : body);
        return true;
      };
      if (await send(routeRequest(rawPath, await readSiteMap(root)))) return;
      // A page that has gone (or come) since the site was last read: read it again, once.
      if (await send(routeRequest(rawPath, await readSiteMap(root, true)))) return;
      // No such file: what the bucket answers, the not-found page with status 404.
      if (await send({ kind: 'file', key: (await readSiteMap(root)).notFound.nl, status: 404 })) return;
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
