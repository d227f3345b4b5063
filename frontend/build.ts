/** `npm run build`: the browser bundle, then each page prerendered to static HTML in its language. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { build } from 'vite';
import { confirmPageFile, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { LEAVE_TOKEN_PLACEHOLDER, leavePageFile } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { INLINE_HASHES_FILE, inlineHash, inlineScriptsOf, inlineStylesOf } from '#contract/security-headers';
import { PAGE_SITE_CONFIG_FILE, pageSiteConfig, readSiteConfig } from '#contract/site-config';
import type { Page } from './src/i18n/page-metadata';
import { type AddressedPage, PAGE_PATH } from './src/i18n/page-paths';

const frontendDir = import.meta.dirname;
const configFile = join(frontendDir, 'vite.config.ts');
const outDir = resolve(frontendDir, '../dist');
const prerenderDir = resolve(frontendDir, '../node_modules/.cache/mandje-prerender');

/** `/privacy` → privacy/index.html. */
const fileOf = (path: string) => join(path.slice(1), 'index.html');

/** `placeholder`: the token a link's page holds once, in its form, for the API to replace. */
type BuiltPage = { file: string; page: Page; locale: Locale; placeholder?: string };
const PAGES: BuiltPage[] = [
  ...(Object.keys(PAGE_PATH) as AddressedPage[]).flatMap((page) =>
    LOCALES.map((locale) => ({ file: fileOf(PAGE_PATH[page][locale]), page, locale })),
  ),
  ...LOCALES.flatMap((locale): BuiltPage[] => [
    // The server answers /en/… paths with the English not-found page.
    { file: `${PAGE_PATH.home[locale].slice(1)}404.html`, page: 'not-found', locale },
    // Served by the API function with a link's token in them: never served or uploaded as files.
    { file: `.mandje/${confirmPageFile(locale)}`, page: 'confirm', locale, placeholder: TOKEN_PLACEHOLDER },
    { file: `.mandje/${leavePageFile(locale)}`, page: 'leave', locale, placeholder: LEAVE_TOKEN_PLACEHOLDER },
  ]),
];

function write(file: string, text: string) {
  mkdirSync(dirname(join(outDir, file)), { recursive: true });
  writeFileSync(join(outDir, file), text);
}

// The module runner loads the config's extensionless TypeScript imports without the bundler's warnings.
const options = { configFile, configLoader: 'runner', logLevel: 'warn' } as const;
await build(options);
await build({
  ...options,
  build: { ssr: 'src/prerender.tsx', outDir: prerenderDir, emptyOutDir: true, copyPublicDir: false },
});

const { prerenderPage, discoveryFiles }: typeof import('./src/prerender') = await import(
  pathToFileURL(join(prerenderDir, 'prerender.js')).href
);
// The template's markers (`<!--app-…-->`) stay for the pages to fill.
const built = readFileSync(join(outDir, 'index.html'), 'utf8').replace(
  /\n?[ \t]*<!--(?!app-)[\s\S]*?-->/g,
  '',
);
const template = await afterLargestPaint(inlineIcon(inlineStylesheets(built)));
const pages = PAGES.map(({ file, page, locale, placeholder }) => {
  const rendered = prerenderPage(page, locale);
  // Replacer functions, so that a `$` in the copy is never read as a replacement pattern.
  const html = template
    .replace('<html lang="nl">', () => `<html lang="${rendered.lang}">`)
    .replace('<!--app-head-->', () => rendered.head)
    .replace('<!--app-page-->', () => page)
    .replace('<!--app-html-->', () => rendered.body);
  if (placeholder !== undefined && html.split(placeholder).length !== 2)
    throw new Error(`${file} must hold ${placeholder} once, in its form`);
  write(file, html);
  return html;
});
// The Content-Security-Policy allows these inline elements and no others.
const hashes = (of: (html: string) => string[]) => [...new Set(pages.flatMap(of).map(inlineHash))];
write(
  INLINE_HASHES_FILE,
  JSON.stringify({ styles: hashes(inlineStylesOf), scripts: hashes(inlineScriptsOf) }),
);
// The site's facts the bundle holds, read as vite.config.ts read them.
write(PAGE_SITE_CONFIG_FILE, JSON.stringify(pageSiteConfig(readSiteConfig(process.env))));
for (const [file, text] of Object.entries(discoveryFiles(new Date()))) write(file, text);

// The entry script and the web manifest, which the first screen does not need, are asked for one frame after
// the largest paint (not at the load event, often before the first paint), so neither competes with it on a
// slow link; a hidden tab at once, and a browser reporting no largest paint half a second after the first.
async function afterLargestPaint(html: string): Promise<string> {
  const entryTag = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  const manifestTag = /<link rel="manifest" href="([^"]+)">/;
  const [entry, manifest] = [entryTag, manifestTag].map((tag) => html.match(tag)?.[1]);
  if (!entry || !manifest) throw new Error('the built index.html has no entry script or manifest link');
  const loader = `(function(run){
    var started=false;function start(){if(!started){started=true;run()}}
    if(document.visibilityState!=="visible")return start();
    function afterNextFrame(){requestAnimationFrame(function(){setTimeout(start,0)})}
    var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];
    if(types.indexOf("largest-contentful-paint")<0)return afterNextFrame();
    if(types.indexOf("paint")>=0)new PerformanceObserver(function(list,observer){observer.disconnect();setTimeout(afterNextFrame,500)}).observe({type:"paint",buffered:true});
    new PerformanceObserver(function(list,observer){observer.disconnect();afterNextFrame()}).observe({type:"largest-contentful-paint",buffered:true})
  })(function(){
    var link=document.createElement("link");link.rel="manifest";link.href=${JSON.stringify(manifest)};document.head.appendChild(link);
    import(${JSON.stringify(entry)})
  })`;
  const { code } = await transform(loader, { minify: true });
  const minified = code.trim().replace(/;$/, '');
  return html
    .replace(entryTag, '')
    .replace(manifestTag, (tag) => `<noscript>${tag}</noscript>`)
    .replace('</body>', () => `<script>${minified}</script>\n  </body>`);
}

// The tab's icon as a data: URL: Chromium asks for a linked icon at the load event, delaying the largest paint.
function inlineIcon(html: string): string {
  const tag = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
  if (!html.includes(tag)) throw new Error(`index.html must link its icon as ${tag}`);
  const svg = readFileSync(join(outDir, 'favicon.svg'), 'utf8').trim();
  if (svg.includes("'")) throw new Error('favicon.svg must not hold a single quote: its quotes become those');
  // The fewest bytes of a valid URL: single quotes, the rest percent-encoded; the tab shows the page's title.
  const drawing = svg.replace(/<title>[^<]*<\/title>/, '').replaceAll('"', "'");
  const url = `data:image/svg+xml,${drawing.replace(/[^\w!$&'()*+,\-./:;=?@~]/g, (char) => encodeURIComponent(char))}`;
  return html.replace(tag, () => `<link rel="icon" href="${url}">`);
}

/** The stylesheet in the page: one round trip less before the first paint on a slow link. */
function inlineStylesheets(html: string): string {
  return html.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (_, href: string) => {
      const file = join(outDir, href);
      const css = readFileSync(file, 'utf8');
      if (/<\/style/i.test(css)) throw new Error(`${href} contains </style and cannot be inlined`);
      rmSync(file);
      // Tailwind's fallback for browsers without `@property`, older than those Tailwind 4 supports.
      const inlined = css.replace(/@layer properties\{@supports[^{]*\{(?:[^{}]*\{[^{}]*\})*\}\}/, '');
      if (inlined.includes('@layer properties'))
        throw new Error(`${href}: Tailwind's fallback not found whole`);
      return `<style>${inlined}</style>`;
    },
  );
}
