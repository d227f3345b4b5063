import { CACHE_CONTROL, SECURITY_TXT_PATH, type SiteMap } from './site-routing';

/**
 * How the built site (dist/) is served, written once for both places that serve it: CloudFront in
 * production (its viewer functions run routeRequest, its bucket deployments take content types and cache
 * control from here) and the local runner (local/static-site.ts). A test runs one table of request paths
 * against both (test/integration/site-parity.test.ts).
 *
 * The rules, for a visitor and for search engines (one address per page):
 * - A page is a folder with an index.html. It lives at one address: the language homes with a slash (`/`,
 *   `/en/`), every other page without one (`/privacy`, `/en/privacy`). The other spelling, and
 *   `…/index.html` itself, answer 301 to that address.
 * - Files are files, at their own path: hashed assets cached for a year, everything else revalidated.
 * - Anything else is the not-found page in the path's language (`/en/…` English, the rest Dutch), with
 *   status 404. Dot folders (`.vite/`, `.mandje/`) are build metadata, never served, with one exception:
 *   `/.well-known/security.txt`.
 */

export {
  CACHE_CONTROL,
  type Route,
  routeRequest,
  type SiteMap,
} from './site-routing';

/** Whether a file of the built site (its path in dist/) is served: not build metadata in a dot folder. */
export const isServedFile = (key: string): boolean =>
  `/${key}` === SECURITY_TXT_PATH || !key.split('/').some((segment) => segment.startsWith('.'));

/** The addresses with a trailing slash: the language homes. Every other page has none. */
export const LANGUAGE_HOMES = ['/', '/en/'];

/** Files under this folder have a content hash in their name. */
export const HASHED_ASSETS_FOLDER = 'assets/';

/** The Cache-Control of a file in dist/ (its path there, e.g. `assets/index-Ab12.js`). */
export const cacheControlFor = (key: string): string =>
  key.startsWith(HASHED_ASSETS_FOLDER) ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate;

/**
 * Every kind of file the site may hold: how it is labelled, and whether it is compressed on the way (text
 * is; images and fonts are compressed already). The build fails on a file of any other kind.
 */
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

export type FileExtension = keyof typeof FILE_TYPES;

/** The file type of a path, by its extension; undefined for a kind the site does not serve. */
export function fileTypeOf(path: string): (typeof FILE_TYPES)[FileExtension] | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot === -1 ? undefined : FILE_TYPES[name.slice(dot).toLowerCase() as FileExtension];
}

/**
 * CloudFront compresses a response of a compressible type when it is at least this large (and the viewer
 * accepts gzip or brotli); below it the headers outweigh the gain. The local runner does the same.
 */
export const MIN_COMPRESSIBLE_BYTES = 1_000;

/**
 * The site map of a built site, from the paths of its files (`['index.html', 'en/index.html', …]`): each
 * folder with an index.html is a page at the address described at the top.
 */
export function siteMapOf(keys: readonly string[]): SiteMap {
  const pages: Record<string, string> = {};
  for (const key of keys) {
    if (key !== 'index.html' && !key.endsWith('/index.html')) continue;
    if (key.split('/').some((segment) => segment.startsWith('.'))) continue;
    const folder = `/${key.slice(0, -'index.html'.length)}`;
    const address = LANGUAGE_HOMES.includes(folder) ? folder : folder.replace(/\/$/, '');
    pages[address] = key;
  }
  return { pages, notFound: { nl: '404.html', en: 'en/404.html' } };
}
