/**
 * The response headers every page, asset and API answer is served with, locally and by CloudFront: one
 * list, so the page is tested under the same rules it runs under.
 *
 * The page's stylesheet is inlined in each prerendered page (the first paint needs no second request), so
 * the policy allows exactly those inline styles by their SHA-256 hashes, never 'unsafe-inline'. The build
 * writes the hashes to INLINE_STYLE_HASHES_FILE in dist/; the local runner and the CDK stack both read
 * them from there (readInlineStyleHashes), so a page cannot be allowed in one place and blocked in the other.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where in dist/ the build lists its inline styles' hashes. A dot folder: never served, never deployed. */
export const INLINE_STYLE_HASHES_FILE = '.mandje/inline-style-hashes.json';

/** A CSP source that allows one inline `<style>` whose text is `css`, exactly. */
export function inlineStyleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
}

export function contentSecurityPolicy(styleHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Two years, subdomains included, eligible for browsers' preload lists. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export function securityHeaders(styleHashes: readonly string[] = []) {
  return {
    'content-security-policy': contentSecurityPolicy(styleHashes),
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  } as const satisfies Record<string, string>;
}

export type SecurityHeaders = ReturnType<typeof securityHeaders>;

/** The text of every `<style>` element in an HTML document, as the browser hashes it. */
export function inlineStylesOf(html: string): string[] {
  return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map(([, css = '']) => css);
}

function htmlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.html'))
    .map((path) => join(dir, path));
}

/**
 * The inline-style hashes the build listed for `siteDir`, checked against its pages: a page whose style
 * is not listed (a stale list, a hand-edited page) fails here, in one sentence, rather than unstyled in a
 * browser. A folder with neither list nor inline styles (a test fixture) has none.
 */
export function readInlineStyleHashes(siteDir: string): string[] {
  const file = join(siteDir, INLINE_STYLE_HASHES_FILE);
  const listed: string[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  for (const page of htmlFilesUnder(siteDir)) {
    for (const css of inlineStylesOf(readFileSync(page, 'utf8'))) {
      if (!listed.includes(inlineStyleHash(css)))
        throw new Error(
          `${page} has an inline style that ${INLINE_STYLE_HASHES_FILE} does not list (rebuild)`,
        );
    }
  }
  return listed;
}
