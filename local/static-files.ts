import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import { fileTypeOf, MIN_COMPRESSIBLE_BYTES } from '#contract/site-serving';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

interface Representation {
  body: Buffer;
  etag: string;
}

/** One file as it is sent: its bytes in each encoding worth offering, with its validators. */
export interface StaticFile {
  contentType: string;
  lastModified: Date;
  representations: { identity: Representation; br?: Representation; gzip?: Representation };
  /** Whether the bytes sent depend on Accept-Encoding, which caches must then be told. */
  variesByEncoding: boolean;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The strongest settings: each file is compressed once, so the smallest result is worth the time. */
async function compress(body: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }),
    gzipAsync(body, { level: zlibConstants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

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
  const compressed = await compress(body);
  for (const encoding of ['br', 'gzip'] as const) {
    if (compressed[encoding].byteLength >= body.byteLength) continue;
    file.representations[encoding] = { body: compressed[encoding], etag: etagOf(hash, encoding) };
    file.variesByEncoding = true;
  }
  return file;
}

/** Far more than a build has; a folder rebuilt many times over simply starts afresh. */
const MAX_CACHED_FILES = 1_000;

/**
 * The built files in memory, each read and compressed once and kept until its modification time or size
 * changes (a rebuild while the runner is running). `dist/` is a few hundred kilobytes, so keeping it all
 * is cheaper than compressing per request, which is what CloudFront saves production from too.
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

export type StaticFileCache = ReturnType<typeof createStaticFileCache>;

/** Every regular file under `root` (symbolic links are skipped: they could point anywhere). */
export async function listRegularFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
