import { CACHE_CONTROL, SECURITY_TXT_PATH, type SiteMap } from './site-routing';

// How dist/ is served by CloudFront and the runner alike: one address per page; other spellings 301.

export { CACHE_CONTROL, type Route, routeRequest, type SiteMap } from './site-routing';

export const isServedFile = (key: string): boolean =>
  `/${key}` === SECURITY_TXT_PATH || !key.split('/').some((segment) => segment.startsWith('.'));

export const LANGUAGE_HOMES = ['/', '/en/'];

/** Files under assets/ have a content hash in their name. */
export const cacheControlFor = (key: string): string =>
  key.startsWith('assets/') ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate;

/** Every kind of file the site may hold; the build fails on any other. */
export const FILE_TYPES = {
  '.html': { contentType: 'text/html; charset=utf-8', compressible: true },
  '.js': { contentType: 'text/javascript; charset=utf-8', compressible: true },
  '.css': { contentType: 'text/css; charset=utf-8', compressible: true },
  '.svg': { contentType: 'image/svg+xml', compressible: true },
  '.json': { contentType: 'application/json; charset=utf-8', compressible: true },
  '.webmanifest': { contentType: 'application/manifest+json', compressible: true },
  '.txt': { contentType: 'text/plain; charset=utf-8', compressible: true },
  '.xml': { contentType: 'application/xml; charset=utf-8', compressible: true },
  '.png': { contentType: 'image/png', compressible: false },
  '.jpg': { contentType: 'image/jpeg', compressible: false },
  '.webp': { contentType: 'image/webp', compressible: false },
  '.avif': { contentType: 'image/avif', compressible: false },
  '.ico': { contentType: 'image/x-icon', compressible: false },
  '.woff2': { contentType: 'font/woff2', compressible: false },
} as const satisfies Record<string, { contentType: string; compressible: boolean }>;

export function fileTypeOf(path: string) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot === -1 ? undefined : FILE_TYPES[name.slice(dot).toLowerCase() as keyof typeof FILE_TYPES];
}

/** CloudFront's threshold for compressing; the local runner does the same. */
export const MIN_COMPRESSIBLE_BYTES = 1_000;

export function siteMapOf(keys: readonly string[]): SiteMap {
  const pages: Record<string, string> = {};
  for (const key of keys) {
    if (!`/${key}`.endsWith('/index.html') || !isServedFile(key)) continue;
    const folder = `/${key.slice(0, -'index.html'.length)}`;
    const address = LANGUAGE_HOMES.includes(folder) ? folder : folder.replace(/\/$/, '');
    pages[address] = key;
  }
  return { pages, notFound: { nl: '404.html', en: 'en/404.html' } };
}
