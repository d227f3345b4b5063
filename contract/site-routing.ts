/**
 * Where a request to the site leads: the routing rule, run by the local runner and, bundled as it is, by
 * CloudFront's viewer functions (infra/constructs/site-routing-functions.ts). So this file is written in
 * what CloudFront's JavaScript runtime 2.0 runs: ES 5.1 with const, let, arrow functions and template
 * literals, and no for-of, no Object.hasOwn, no String.prototype.startsWith or includes. It imports
 * nothing. The rest of how the site is served is in site-serving.ts.
 */

/** The Cache-Control values, by what a path holds. */
export const CACHE_CONTROL = {
  /** Hashed build assets never change under their name. */
  immutable: 'public, max-age=31536000, immutable',
  /** Pages and unhashed files keep their name across releases: revalidated every time (ETag, 304). */
  revalidate: 'no-cache',
} as const;

/** What routeRequest needs to know about a site: its pages, by address, and its not-found pages. */
export interface SiteMap {
  /** Each page's one address, with the file that holds it: `{ '/privacy': 'privacy/index.html' }`. */
  pages: Record<string, string>;
  /** The not-found page of each language. */
  notFound: { nl: string; en: string };
}

/**
 * The one file in a dot folder that is served (RFC 9116's place for it): every other path with a segment
 * that starts with a dot is build metadata (`.vite/`, `.mandje/`) and answers not found.
 */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';

export type Route =
  /** Serve `key` (a path in dist/) with this status; a missing file is the bucket's 404. */
  | { kind: 'file'; key: string; status: 200 | 404 }
  /** 301 to this address (the query string, if any, goes along). */
  | { kind: 'redirect'; location: string };

/**
 * Where a request path leads. `rawPath` is the path as requested, percent-encoded, without the query.
 *
 * Runs in CloudFront's JavaScript runtime too (its source is bundled into the viewer functions): no
 * imports, and nothing newer than what that runtime supports.
 */
export function routeRequest(rawPath: string, site: SiteMap): Route {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    path = rawPath;
  }
  // Empty segments (`//`, `///index.html`, `/en//`) are never an address of their own.
  const tidy = path.replace(/\/{2,}/g, '/');
  const english = tidy === '/en' || tidy.indexOf('/en/') === 0;
  const notFound: Route = { kind: 'file', key: english ? site.notFound.en : site.notFound.nl, status: 404 };
  const segments = path.split('/');
  if (
    path.charAt(0) !== '/' ||
    path.indexOf('\\') !== -1 ||
    path.indexOf('\u0000') !== -1 ||
    (segments.some((segment) => segment.charAt(0) === '.') && path !== SECURITY_TXT_PATH)
  ) {
    return notFound;
  }
  const pages = site.pages;
  // biome-ignore lint/suspicious/noPrototypeBuiltins: CloudFront's runtime has no Object.hasOwn.
  const has = (address: string) => Object.prototype.hasOwnProperty.call(pages, address);
  /** The page a spelling names: as it is, with or without the slash, or as …/index.html. */
  const pageSpelledAs = (spelling: string): string | undefined => {
    const folder =
      spelling.slice(-'/index.html'.length) === '/index.html'
        ? spelling.slice(0, -'index.html'.length)
        : spelling;
    const candidates = [spelling, folder, folder.slice(-1) === '/' ? folder.slice(0, -1) : `${folder}/`];
    for (let index = 0; index < candidates.length; index++) {
      const candidate = candidates[index] as string;
      if (has(candidate)) return candidate;
    }
    return undefined;
  };

  // A page at its own address, as requested.
  if (has(path) && path === rawPath) return { kind: 'file', key: pages[path] as string, status: 200 };
  // With empty segments, a page's spelling is moved to the page; nothing else is served (a file has one
  // path, and the bucket has no keys with empty segments).
  if (tidy !== path) {
    const page = pageSpelledAs(tidy);
    return page === undefined ? notFound : { kind: 'redirect', location: page };
  }
  // The same page spelled otherwise: encoded, with or without the slash, or as …/index.html.
  const page = pageSpelledAs(path);
  if (page !== undefined) return { kind: 'redirect', location: page };
  // The not-found pages answer as what they are.
  if (path === `/${site.notFound.nl}`) return { kind: 'file', key: site.notFound.nl, status: 404 };
  if (path === `/${site.notFound.en}`) return { kind: 'file', key: site.notFound.en, status: 404 };
  // A file: the last segment has an extension. Under /en/ there are pages only.
  const last = segments[segments.length - 1] ?? '';
  if (!english && last.indexOf('.') > 0) return { kind: 'file', key: path.slice(1), status: 200 };
  return notFound;
}
