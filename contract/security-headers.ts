/**
 * The response headers every page, asset and API answer is served with, locally and by CloudFront: one
 * list, so the page is tested under the same rules it runs under.
 *
 * Each prerendered page holds its stylesheet inline (the first paint needs no second request) and a
 * one-line inline script that starts the app once that paint is done. The policy allows exactly those
 * inline elements by their SHA-256 hashes, never 'unsafe-inline'. The build writes the hashes to
 * INLINE_HASHES_FILE in dist/; the local runner and the CDK stack both read them from there
 * (readInlineHashes), so a page cannot be allowed in one place and blocked in the other.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where in dist/ the build lists its inline elements' hashes. A dot folder: never served, never deployed. */
export const INLINE_HASHES_FILE = '.mandje/inline-hashes.json';

/** The CSP sources of a site's inline elements, by the directive that allows them. */
export interface InlineHashes {
  styles: string[];
  scripts: string[];
}

export const NO_INLINE_HASHES: InlineHashes = { styles: [], scripts: [] };

/** A CSP source that allows one inline `<style>` or `<script>` whose text is `text`, exactly. */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function contentSecurityPolicy(hashes: InlineHashes = NO_INLINE_HASHES): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...hashes.scripts].join(' '),
    ["style-src 'self'", ...hashes.styles].join(' '),
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

export function securityHeaders(hashes: InlineHashes = NO_INLINE_HASHES) {
  return {
    'content-security-policy': contentSecurityPolicy(hashes),
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  } as const satisfies Record<string, string>;
}

/** The text of every `<style>` element in an HTML document, as the browser hashes it. */
export function inlineStylesOf(html: string): string[] {
  return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map(([, css = '']) => css);
}

/** The text of every inline `<script>` (one without a src) in an HTML document. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script((?:\s[^>]*)?)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes = '']) => !/\ssrc=/i.test(attributes))
    .map(([, , script = '']) => script);
}

function htmlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.html'))
    .map((path) => join(dir, path));
}

/**
 * The inline-element hashes the build listed for `siteDir`, checked against its pages: a page whose style
 * or script is not listed (a stale list, a hand-edited page) fails here, in one sentence, rather than
 * broken in a browser. A folder with neither list nor inline elements (a test fixture) has none.
 */
export function readInlineHashes(siteDir: string): InlineHashes {
  const file = join(siteDir, INLINE_HASHES_FILE);
  const listed: InlineHashes = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : NO_INLINE_HASHES;
  for (const page of htmlFilesUnder(siteDir)) {
    const html = readFileSync(page, 'utf8');
    for (const [kind, texts] of [
      ['styles', inlineStylesOf(html)],
      ['scripts', inlineScriptsOf(html)],
    ] as const) {
      for (const text of texts) {
        if (!listed[kind].includes(inlineHash(text)))
          throw new Error(
            `${page} has an inline ${kind.slice(0, -1)} that ${INLINE_HASHES_FILE} does not list (rebuild)`,
          );
      }
    }
  }
  return listed;
}
