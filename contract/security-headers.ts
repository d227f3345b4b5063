// Every answer's headers, locally and by CloudFront; inline style and script by hash (readInlineHashes).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const INLINE_HASHES_FILE = '.mandje/inline-hashes.json';

type InlineHashes = { styles: string[]; scripts: string[] };

const NO_INLINE_HASHES: InlineHashes = { styles: [], scripts: [] };

export const inlineHash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

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

export const inlineStylesOf = (html: string) =>
  [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)].map(([, css = '']) => css);

export const inlineScriptsOf = (html: string) =>
  [...html.matchAll(/<script((?:\s[^>]*)?)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes = '']) => !/\ssrc=/i.test(attributes))
    .map(([, , script = '']) => script);

/** Checked against the pages: an unlisted inline element fails here rather than in a browser. */
export function readInlineHashes(siteDir: string): InlineHashes {
  const file = join(siteDir, INLINE_HASHES_FILE);
  const listed: InlineHashes = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : NO_INLINE_HASHES;
  for (const path of readdirSync(siteDir, { recursive: true, encoding: 'utf8' })) {
    if (!path.endsWith('.html')) continue;
    const html = readFileSync(join(siteDir, path), 'utf8');
    const inline = { styles: inlineStylesOf(html), scripts: inlineScriptsOf(html) };
    for (const kind of ['styles', 'scripts'] as const) {
      if (inline[kind].some((text) => !listed[kind].includes(inlineHash(text))))
        throw new Error(
          `${join(siteDir, path)} has an inline ${kind.slice(0, -1)} that ${INLINE_HASHES_FILE} does not list (rebuild)`,
        );
    }
  }
  return listed;
}
