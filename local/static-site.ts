import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import * as serving from '#contract/site-serving';

type Encoding = 'br' | 'gzip' | 'identity';
type Representation = { body: Buffer; etag: string };

/** The file's bytes, and each encoding smaller than them, compressed once at the strongest settings. */
async function loadStaticFile(path: string) {
  const body = await readFile(path);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  const type = serving.fileTypeOf(path);
  const representations: Partial<Record<Encoding, Representation>> = {
    identity: { body, etag: `"${hash}"` },
  };
  if (type?.compressible && body.byteLength >= serving.MIN_COMPRESSIBLE_BYTES) {
    const { BROTLI_PARAM_QUALITY, BROTLI_MAX_QUALITY, BROTLI_PARAM_SIZE_HINT, Z_BEST_COMPRESSION } = zlib;
    const params = { [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY, [BROTLI_PARAM_SIZE_HINT]: body.byteLength };
    const compressed = {
      br: await promisify(brotliCompress)(body, { params }),
      gzip: await promisify(gzip)(body, { level: Z_BEST_COMPRESSION }),
    };
    // Each encoding is a different representation, so it gets its own strong validator.
    for (const encoding of ['br', 'gzip'] as const)
      if (compressed[encoding].byteLength < body.byteLength)
        representations[encoding] = { body: compressed[encoding], etag: `"${hash}-${encoding}"` };
  }
  return { contentType: type?.contentType ?? 'application/octet-stream', representations };
}

/** Every regular file under `root` (symbolic links are skipped: they could point anywhere). */
async function listRegularFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Brotli when the client takes it, else gzip, else the bytes as they are; `q=0` refuses one. */
function negotiateEncoding(acceptEncoding = '', offered: Partial<Record<Encoding, unknown>>): Encoding {
  const q = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
      const weight = parameters.find((parameter) => parameter.startsWith('q='));
      return [name, weight ? Number(weight.slice(2)) || 0 : 1] as const;
    }),
  );
  const takes = (encoding: string) => (q.get(encoding) ?? q.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).find((encoding) => offered[encoding] && takes(encoding)) ?? 'identity';
}

/** Whether the client's copy is current: If-None-Match first (weak comparison), If-Modified-Since without it. */
function isNotModified(request: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  // HTTP dates have whole seconds; a missing or malformed date parses as NaN, which no time is before.
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

const sendText = (response: ServerResponse, status: number, text: string, headers = {}) =>
  void response
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...headers,
    })
    .end(text);

// The built page by production's rules and CloudFront's compression; nothing outside `distDir` is ever read.
export function createStaticSite(distDir: string) {
  // The real path, so symbolic links inside the folder are compared with what they point to.
  const rootPromise = realpath(resolve(distDir)).catch(() => resolve(distDir));
  // Each file is read and compressed once, and kept until its time or size changes (a rebuild).
  const files = new Map<string, { version: string; file: ReturnType<typeof loadStaticFile> }>();
  const fileAt = (path: string, stats: { mtime: Date; size: number }) => {
    const version = `${stats.mtime.getTime()}:${stats.size}`;
    const cached = files.get(path);
    if (cached?.version === version) return cached.file;
    const file = loadStaticFile(path);
    files.set(path, { version, file });
    // A failed read is not kept: the next request tries again.
    file.catch(() => files.get(path)?.file === file && files.delete(path));
    return file;
  };
  let siteMap: Promise<serving.SiteMap> | undefined;
  let readAt = 0;
  // Read again after a rebuild, once a second at most: requests for missing files cannot list it each time.
  const readSiteMap = async (fresh = false) => {
    const root = await rootPromise;
    if (!siteMap || (fresh && Date.now() - readAt > 1_000)) {
      readAt = Date.now();
      const paths = listRegularFiles(root);
      siteMap = paths.then((all) =>
        serving.siteMapOf(all.map((path) => relative(root, path).split(sep).join('/'))),
      );
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
      const send = async (route: serving.Route) => {
        if (route.kind === 'redirect') {
          const headers = {
            location: route.location + query,
            'cache-control': serving.CACHE_CONTROL.revalidate,
          };
          response.writeHead(301, { ...headers, 'content-length': 0 }).end();
          return true;
        }
        const isInside = (path: string) => path.startsWith(root + sep);
        const candidate = join(root, route.key);
        const real = isInside(candidate) ? await realpath(candidate).catch(() => undefined) : undefined;
        const stats = real && isInside(real) ? await stat(real).catch(() => undefined) : undefined;
        if (!real || !stats?.isFile()) return false;
        const { contentType, representations } = await fileAt(real, stats);
        const encoding = negotiateEncoding(request.headers['accept-encoding'], representations);
        const { body, etag } = representations[encoding] as Representation;
        const validators = {
          'cache-control': serving.cacheControlFor(route.key),
          etag,
          'last-modified': stats.mtime.toUTCString(),
          ...(representations.br || representations.gzip ? { vary: 'accept-encoding' } : {}),
        };
        if (route.status === 200 && isNotModified(request, etag, stats.mtime)) {
          response.writeHead(304, validators).end();
          return true;
        }
        response.writeHead(route.status, {
          ...validators,
          'content-type': contentType,
          'content-length': body.byteLength,
          ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        });
        // Node sends no body for HEAD by itself; the headers stay those of GET.
        response.end(request.method === 'HEAD' ? undefined : body);
        return true;
      };
      // A page gone (or come) since the site was read is looked up again; else the bucket's 404 page.
      if (await send(serving.routeRequest(rawPath, await readSiteMap()))) return;
      if (await send(serving.routeRequest(rawPath, await readSiteMap(true)))) return;
      if (await send({ kind: 'file', key: (await readSiteMap()).notFound.nl, status: 404 })) return;
      sendText(response, 404, 'Not Found');
    },

    /** Reads and compresses every file ahead of the first visitor, so no request waits for Brotli. */
    async warmUp(): Promise<void> {
      const paths = await listRegularFiles(await rootPromise);
      // A file that cannot be read now is simply read when it is first asked for.
      const load = (path: string) =>
        stat(path).then(
          (stats) => fileAt(path, stats),
          () => {},
        );
      await Promise.all([readSiteMap(true), ...paths.map(load)]);
    },
  };
}
