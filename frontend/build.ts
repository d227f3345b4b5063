/**
 * `npm run build`: the browser bundle, then each page prerendered to static HTML in its language (so the
 * text is there before any script runs). The sizes of what a first visit downloads are reported after
 * the build by bench/report-sizes.ts: the production build imports nothing from bench/.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { LOCALES, type Locale } from '#contract/locales';
import { INLINE_STYLE_HASHES_FILE, inlineStyleHash, inlineStylesOf } from '../infra/security-headers';
import type { Page } from './src/i18n/page-metadata';
import { type AddressedPage, PAGE_PATH } from './src/i18n/page-paths';
import type { PrerenderedPage } from './src/prerender';

const frontendDir = import.meta.dirname;
const configFile = join(frontendDir, 'vite.config.ts');
const outDir = resolve(frontendDir, '../dist');
const prerenderDir = resolve(frontendDir, '../node_modules/.cache/mandje-prerender');

/** The file each page is written to: its address, with index.html for folders (`/privacy` → privacy/index.html). */
const fileOf = (path: string) =>
  `${path.slice(1)}${path.endsWith('/') ? '' : '/'}index.html`.replace(/^\//, '');

const PAGES: { file: string; page: Page; locale: Locale }[] = [
  ...(Object.keys(PAGE_PATH) as AddressedPage[]).flatMap((page) =>
    LOCALES.map((locale) => ({ file: fileOf(PAGE_PATH[page][locale]), page, locale })),
  ),
  // The not-found page in each language: the server answers /en/… paths with the English one.
  { file: '404.html', page: 'not-found', locale: 'nl' },
  { file: 'en/404.html', page: 'not-found', locale: 'en' },
];

await build({ configFile, logLevel: 'warn' });
await build({
  configFile,
  logLevel: 'warn',
  build: { ssr: 'src/prerender.tsx', outDir: prerenderDir, emptyOutDir: true, copyPublicDir: false },
});

const { prerenderPage } = (await import(pathToFileURL(join(prerenderDir, 'prerender.js')).href)) as {
  prerenderPage: (page: Page, locale: Locale) => PrerenderedPage;
};
const template = inlineStylesheets(readFileSync(join(outDir, 'index.html'), 'utf8'));
const styleHashes = new Set<string>();
for (const { file, page, locale } of PAGES) {
  const rendered = prerenderPage(page, locale);
  // Replacer functions, so that a `$` in the copy is never read as a replacement pattern.
  const html = template
    .replace('<html lang="nl">', () => `<html lang="${rendered.lang}">`)
    .replace('<!--app-head-->', () => rendered.head)
    .replace('<!--app-page-->', () => page)
    .replace('<!--app-html-->', () => rendered.body);
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, html);
  for (const css of inlineStylesOf(html)) styleHashes.add(inlineStyleHash(css));
}
// The Content-Security-Policy allows these inline styles and no others (infra/security-headers.ts).
const hashesFile = join(outDir, INLINE_STYLE_HASHES_FILE);
mkdirSync(dirname(hashesFile), { recursive: true });
writeFileSync(hashesFile, `${JSON.stringify([...styleHashes], null, 2)}\n`);

/**
 * The stylesheet in the page itself: one round trip less before the first paint on a slow link, and the
 * page still fits in the first few TCP round trips. The file it came from is no longer needed.
 */
function inlineStylesheets(html: string): string {
  return html.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (_, href: string) => {
      const file = join(outDir, href);
      const css = readFileSync(file, 'utf8');
      if (/<\/style/i.test(css)) throw new Error(`${href} contains </style and cannot be inlined`);
      rmSync(file);
      return `<style>${css}</style>`;
    },
  );
}
