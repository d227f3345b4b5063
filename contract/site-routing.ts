// Also bundled into CloudFront's viewer functions, so in its runtime 2.0's language: ES 5.1 with const, let,
// arrows and template literals; no for-of, Object.hasOwn, startsWith or includes; no imports.

export const CACHE_CONTROL = {
  immutable: 'public, max-age=31536000, immutable',
  revalidate: 'no-cache',
} as const;

export interface SiteMap {
  /** Each page's one address: `{ '/privacy': 'privacy/index.html' }`. */
  pages: Record<string, string>;
  notFound: { nl: string; en: string };
}

/** The one served file in a dot folder; other dot segments are build metadata (`.vite/`, `.mandje/`). */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';

export type Route =
  | { kind: 'file'; key: string; status: 200 | 404 }
  /** 301; the query string goes along. */
  | { kind: 'redirect'; location: string };

/** `rawPath`: percent-encoded, without the query. */
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
  const pageSpelledAs = (spelling: string): string | undefined => {
    const folder =
      spelling.slice(-'/index.html'.length) === '/index.html'
        ? spelling.slice(0, -'index.html'.length)
        : spelling;
    return [spelling, folder, folder.slice(-1) === '/' ? folder.slice(0, -1) : `${folder}/`].filter(has)[0];
  };

  if (has(path) && path === rawPath) return { kind: 'file', key: pages[path] as string, status: 200 };
  // With empty segments only a page's spelling leads anywhere: the bucket has no such keys.
  if (tidy !== path) {
    const page = pageSpelledAs(tidy);
    return page === undefined ? notFound : { kind: 'redirect', location: page };
  }
  const page = pageSpelledAs(path);
  if (page !== undefined) return { kind: 'redirect', location: page };
  if (path === `/${site.notFound.nl}`) return { kind: 'file', key: site.notFound.nl, status: 404 };
  if (path === `/${site.notFound.en}`) return { kind: 'file', key: site.notFound.en, status: 404 };
  // Under /en/ there are pages only.
  const last = segments[segments.length - 1] ?? '';
  if (!english && last.indexOf('.') > 0) return { kind: 'file', key: path.slice(1), status: 200 };
  return notFound;
}
