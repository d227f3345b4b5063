/**
 * `npm run build`: the browser bundle, then each page prerendered to static HTML in its language (so the
 * text is there before any script runs). The sizes of what a first visit downloads are reported after
 * the build by bench/report-sizes.ts: the production build imports nothing from bench/.
 */
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
import { SECURITY_TXT_PATH } from '#contract/site-routing';
import { robotsTxt, securityTxt, sitemapXml } from './discovery-files';
import type { Page } from './src/i18n/page-metadata';
import { type AddressedPage, PAGE_PATH } from './src/i18n/page-paths';
import type { discoveryFacts as DiscoveryFacts, PrerenderedPage } from './src/prerender';

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
  // The confirmation page in each language, which the API function serves with the token of the link
  // in it (#contract/confirmation). In a dot folder: never served as a file, never uploaded with the site.
  ...LOCALES.map((locale) => ({
    file: `.mandje/${confirmPageFile(locale)}`,
    page: 'confirm' as const,
    locale,
  })),
  // The leave page in each language, which the API function serves with the token of the link in it
  // (#contract/leave).
  ...LOCALES.map((locale) => ({ file: `.mandje/${leavePageFile(locale)}`, page: 'leave' as const, locale })),
];

/** The placeholder each page served with a link's token must hold exactly once, in its form. */
const TOKEN_PLACEHOLDER_OF: Partial<Record<Page, string>> = {
  confirm: TOKEN_PLACEHOLDER,
  leave: LEAVE_TOKEN_PLACEHOLDER,
};

// The config imports TypeScript modules by extensionless paths (the local API plugin); Vite's module runner
// loads them as the rest of the project does, without the bundling loader's warnings about them.
await build({ configFile, configLoader: 'runner', logLevel: 'warn' });
await build({
  configFile,
  configLoader: 'runner',
  logLevel: 'warn',
  build: { ssr: 'src/prerender.tsx', outDir: prerenderDir, emptyOutDir: true, copyPublicDir: false },
});

const { prerenderPage, discoveryFacts } = (await import(
  pathToFileURL(join(prerenderDir, 'prerender.js')).href
)) as {
  prerenderPage: (page: Page, locale: Locale) => PrerenderedPage;
  discoveryFacts: typeof DiscoveryFacts;
};
const template = await afterLargestPaint(
  inlineIcon(inlineStylesheets(withoutComments(readFileSync(join(outDir, 'index.html'), 'utf8')))),
);
const inlineHashes = { styles: new Set<string>(), scripts: new Set<string>() };
for (const { file, page, locale } of PAGES) {
  const rendered = prerenderPage(page, locale);
  // Replacer functions, so that a `$` in the copy is never read as a replacement pattern.
  const html = template
    .replace('<html lang="nl">', () => `<html lang="${rendered.lang}">`)
    .replace('<!--app-head-->', () => rendered.head)
    .replace('<!--app-page-->', () => page)
    .replace('<!--app-html-->', () => rendered.body);
  // The function puts the token in place of the first placeholder only: the form's, and no other.
  const placeholder = TOKEN_PLACEHOLDER_OF[page];
  if (placeholder !== undefined && html.split(placeholder).length !== 2)
    throw new Error(`${file} must hold ${placeholder} once, in its form`);
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, html);
  for (const css of inlineStylesOf(html)) inlineHashes.styles.add(inlineHash(css));
  for (const script of inlineScriptsOf(html)) inlineHashes.scripts.add(inlineHash(script));
}
// The Content-Security-Policy allows these inline elements and no others (contract/security-headers.ts).
const hashesFile = join(outDir, INLINE_HASHES_FILE);
mkdirSync(dirname(hashesFile), { recursive: true });
writeFileSync(
  hashesFile,
  `${JSON.stringify({ styles: [...inlineHashes.styles], scripts: [...inlineHashes.scripts] }, null, 2)}\n`,
);

// The site's facts the bundle holds, read as vite.config.ts read them (#contract/site-config).
writeFileSync(
  join(outDir, PAGE_SITE_CONFIG_FILE),
  `${JSON.stringify(pageSiteConfig(readSiteConfig(process.env)), null, 2)}\n`,
);

// robots.txt, sitemap.xml and security.txt name the site's address and contact as the pages do: from the
// prerender's bundle, which holds the values Vite was given (vite.config.ts).
writeFileSync(join(outDir, 'robots.txt'), robotsTxt(discoveryFacts.siteUrl));
writeFileSync(join(outDir, 'sitemap.xml'), sitemapXml(discoveryFacts.indexedPages));
const securityTxtFile = join(outDir, SECURITY_TXT_PATH.slice(1));
mkdirSync(dirname(securityTxtFile), { recursive: true });
writeFileSync(securityTxtFile, securityTxt({ ...discoveryFacts, now: new Date() }));

/**
 * What the first screen does not need is asked for only once the browser reports the page's largest
 * paint (its heading): the entry (boot.ts), which Vite names with a script tag the browser would fetch
 * while the page is still being parsed and painted, and the web manifest, which Chrome fetches as soon as
 * the page has loaded. One short script at the end of the body does it (allowed by its hash, like the
 * inline stylesheet), one frame after that paint, so a heading that settles a frame later is painted too;
 * where the largest paint is not reported (a hidden tab, which does not paint, a browser without the
 * entry type, or a page opened at a fragment, which Chromium often leaves without one) it runs at once,
 * after the next frame, or half a second after the first paint. Without a script the manifest
 * link is there all the same, in a <noscript>.
 */
async function afterLargestPaint(html: string): Promise<string> {
  const entryTag = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  const manifestTag = /<link rel="manifest" href="([^"]+)">/;
  const entry = html.match(entryTag)?.[1];
  const manifest = html.match(manifestTag)?.[1];
  if (!entry || !manifest) throw new Error('the built index.html has no entry script or manifest link');
  const start = [
    'function(){',
    'var link=document.createElement("link");',
    `link.rel="manifest";link.href=${JSON.stringify(manifest)};document.head.appendChild(link);`,
    `import(${JSON.stringify(entry)})`,
    '}',
  ].join('');
  // Started once: at the largest paint, or half a second after the first paint when the browser reports
  // no largest paint (a page opened at a fragment such as /#signup often reports none), after the next
  // frame. Not at the load event: that often comes before the first paint, and the scripts would then
  // stand in its way.
  const loader = [
    '(function(run){',
    'var started=false;function start(){if(!started){started=true;run()}}',
    'if(document.visibilityState!=="visible")return start();',
    'function afterNextFrame(){requestAnimationFrame(function(){setTimeout(start,0)})}',
    'var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];',
    'if(types.indexOf("largest-contentful-paint")<0)return afterNextFrame();',
    'if(types.indexOf("paint")>=0)new PerformanceObserver(function(list,observer){observer.disconnect();setTimeout(afterNextFrame,500)}).observe({type:"paint",buffered:true});',
    'new PerformanceObserver(function(list,observer){observer.disconnect();afterNextFrame()})',
    '.observe({type:"largest-contentful-paint",buffered:true})',
    `})(${start})`,
  ].join('');
  // Written out above for its reader; minified for the page, which carries it on every first visit.
  const { code } = await transform(loader, { minify: true });
  const minified = code.trim().replace(/;$/, '');
  return html
    .replace(entryTag, '')
    .replace(manifestTag, (tag) => `<noscript>${tag}</noscript>`)
    .replace('</body>', () => `<script>${minified}</script>\n  </body>`);
}

/** The template's comments are for its reader; its markers (`<!--app-…-->`) stay for the pages to fill. */
function withoutComments(html: string): string {
  return html.replace(/\n?[ \t]*<!--(?!app-)[\s\S]*?-->/g, '');
}

/**
 * The tab's icon in the page itself, as a data: URL of public/favicon.svg (its one drawing): Chromium asks
 * for a linked icon as soon as the page has loaded, which on a large page is before its first paint, and
 * that request then stands between a slow link and the page's largest paint (and a page without an icon
 * link makes it ask for /favicon.ico instead). The page's other marks are drawn inline
 * (components/brand-logo.tsx), so the compressed page grows by a hundred bytes or so only.
 */
function inlineIcon(html: string): string {
  const tag = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
  if (!html.includes(tag)) throw new Error(`index.html must link its icon as ${tag}`);
  const svg = readFileSync(join(outDir, 'favicon.svg'), 'utf8').trim();
  if (svg.includes("'")) throw new Error('favicon.svg must not hold a single quote: its quotes become those');
  // A valid URL (the W3C checker holds the page to the URL Standard) of the fewest bytes: the drawing's
  // attributes in single quotes, which a URL may hold as they are; every character a URL may not hold
  // percent-encoded. The tab shows the page's title, so the drawing's own goes. The data: URL names its
  // type, so the link needs none.
  const drawing = svg.replace(/<title>[^<]*<\/title>/, '').replaceAll('"', "'");
  const url = `data:image/svg+xml,${drawing.replace(/[^\w!$&'()*+,\-./:;=?@~]/g, (char) => encodeURIComponent(char))}`;
  return html.replace(tag, () => `<link rel="icon" href="${url}">`);
}

/**
 * Tailwind's fallback for browsers without `@property` (Safari before 16.4, Firefox before 128), which are
 * below the browsers Tailwind 4 supports: every page carries it in its first round trip, and no browser
 * the page is made for reads it. Removed whole, or the build stops.
 */
function withoutPropertiesFallback(css: string): string {
  const start = css.indexOf('@layer properties{@supports');
  if (start < 0) return css;
  let depth = 0;
  for (let index = css.indexOf('{', start); index < css.length; index++) {
    if (css[index] === '{') depth++;
    else if (css[index] === '}' && --depth === 0) return css.slice(0, start) + css.slice(index + 1);
  }
  throw new Error('the stylesheet ends inside its @layer properties block');
}

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
      return `<style>${withoutPropertiesFallback(css)}</style>`;
    },
  );
}
