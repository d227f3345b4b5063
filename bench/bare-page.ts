/**
 * The floor the page is measured against: a bare Dutch page with the hero's heading and paragraph, no
 * CSS and no script, served by the same local runner in the same run. What the page costs over it is
 * what its styles, markup and scripts cost; what both cost is the network, the runner and Chromium.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '../frontend/src/i18n/messages';

/** Its address: the runner serves any `<folder>/index.html` at `/<folder>` (contract/site-serving.ts). */
export const BARE_PAGE_PATH = '/bench-floor';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function barePageHtml(): string {
  const { meta, hero } = messages.nl;
  return [
    '<!doctype html>',
    '<html lang="nl">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(meta.homeTitle)}</title>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(hero.title)}</h1>`,
    `<p>${escapeHtml(hero.subtitle)}</p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * A copy of the built site with the bare page added at BARE_PAGE_PATH, in a temporary folder (dist/ stays
 * as it is); `remove()` deletes it.
 */
export function siteWithBarePage(distDir: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-bench-site-'));
  try {
    cpSync(distDir, dir, { recursive: true });
    const page = join(dir, BARE_PAGE_PATH.slice(1), 'index.html');
    mkdirSync(join(page, '..'), { recursive: true });
    writeFileSync(page, barePageHtml());
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
