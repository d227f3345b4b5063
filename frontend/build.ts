/**
 * `npm run build`: the browser bundle, then each page prerendered to static HTML in its language (so the
 * text is there before any script runs), then the sizes of what a first visit downloads.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Locale } from './src/i18n/locales';
import type { Page } from './src/i18n/page-metadata';
import type { PrerenderedPage } from './src/prerender';

const frontendDir = import.meta.dirname;
const configFile = join(frontendDir, 'vite.config.ts');
const outDir = resolve(frontendDir, '../dist');
const prerenderDir = resolve(frontendDir, '../node_modules/.cache/mandje-prerender');

/** What the first view of `/` may cost in JavaScript, gzipped. */
const INITIAL_JS_BUDGET_GZIP_BYTES = 100 * 1024;

const PAGES: { file: string; page: Page; locale: Locale }[] = [
  { file: 'index.html', page: 'home', locale: 'nl' },
  { file: 'en/index.html', page: 'home', locale: 'en' },
  // Prerendered in Dutch; the script switches it to English for /en/… paths and English-choosing visitors.
  { file: '404.html', page: 'not-found', locale: 'nl' },
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
const template = readFileSync(join(outDir, 'index.html'), 'utf8');
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
}

reportSizes();

function reportSizes(): void {
  const files = listFiles(outDir).filter((file) => /\.(js|css|html|svg)$/.test(file));
  const rows = files.map((file) => {
    const bytes = readFileSync(file);
    return { file: relative(outDir, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log('\nBuilt files (raw / gzip):');
  for (const row of rows)
    console.log(`  ${row.file.padEnd(36)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)}`);

  const indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
  const initialScripts = [
    ...indexHtml.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g),
  ].map((match) => match[1]);
  const initialJs = rows
    .filter((row) => initialScripts.includes(row.file))
    .reduce((sum, row) => sum + row.gzip, 0);
  console.log(
    `\nInitial JavaScript of /: ${kb(initialJs)} gzip (budget ${kb(INITIAL_JS_BUDGET_GZIP_BYTES)}), ${initialScripts.length} file(s)`,
  );
  if (initialScripts.length === 0 || initialJs > INITIAL_JS_BUDGET_GZIP_BYTES) {
    console.error('Initial JavaScript is over budget, or no script was found in index.html.');
    process.exitCode = 1;
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
