/** What the built page costs a visitor in bytes, read from dist/ and dist-functions/ as built. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { decode } from '@jridgewell/sourcemap-codec';
import { inlineStylesOf } from '#contract/security-headers';
import { PAGE_SITE_CONFIG_FILE } from '#contract/site-config';
import { BUNDLE_BUDGETS, type BudgetCheck, describeBudget, evaluateBudget } from './budgets';
import { type BenchSection, kb } from './report';

export const ROOT_DIR = resolve(import.meta.dirname, '..');
export const DIST_DIR = join(ROOT_DIR, 'dist');
export const LAMBDA_BUNDLE = join(ROOT_DIR, 'dist-functions/api/index.mjs');

const REACT_PACKAGES = new Set(['react', 'react-dom', 'scheduler']);
/** What the local runner and CloudFront compress. */
const TEXT_FILE = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/;
const IMAGE_FILE = /\.(png|svg|ico|webp|avif|jpe?g|gif)$/;
const LANDING_HTML = ['index.html', 'en/index.html'];

/** `transferBytes` is what crosses the network: brotli for text, the file itself for images and fonts. */
function bytesSize(bytes: Buffer, file: string, text = TEXT_FILE.test(file)) {
  const brotliBytes = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;
  const gzipBytes = gzipSync(bytes, { level: 9 }).length;
  return {
    file,
    rawBytes: bytes.length,
    gzipBytes,
    brotliBytes,
    transferBytes: text ? brotliBytes : bytes.length,
  };
}
type FileSize = ReturnType<typeof bytesSize>;

const fileSize = (path: string, file: string) => bytesSize(readFileSync(path), file);

function total(files: FileSize[]) {
  const sum = (key: Exclude<keyof FileSize, 'file'>) => files.reduce((bytes, file) => bytes + file[key], 0);
  return {
    files,
    rawBytes: sum('rawBytes'),
    gzipBytes: sum('gzipBytes'),
    brotliBytes: sum('brotliBytes'),
    transferBytes: sum('transferBytes'),
  };
}

/** Same-site images, fonts and manifests the HTML of `/` makes the browser fetch before the first view. */
function initialAssetsOf(html: string) {
  const found = { media: new Set<string>(), manifests: new Set<string>() };
  for (const [tag, name = ''] of html.matchAll(/<(link|img)\b[^>]*>/gi)) {
    const attribute = (key: string) => tag.match(new RegExp(`\\s${key}\\s*=\\s*"([^"]*)"`, 'i'))?.[1];
    const rel = (attribute('rel') ?? '').toLowerCase().split(/\s+/);
    const img = name.toLowerCase() === 'img';
    const path = attribute(img ? 'src' : 'href');
    const list =
      img || rel.includes('icon') || (rel.includes('preload') && /^(image|font)$/.test(attribute('as') ?? ''))
        ? found.media
        : rel.includes('manifest')
          ? found.manifests
          : undefined;
    if (path?.startsWith('/') && !path.startsWith('//')) list?.add(path);
  }
  return found;
}

/**
 * Site paths of the scripts `/` runs at start, from Vite's build manifest: the entry, what it imports, and
 * what it starts after the first paint (frontend/src/boot.ts) except the other language's copy.
 */
function initialScriptsOf(distDir: string): string[] {
  const language = readFileSync(join(distDir, 'index.html'), 'utf8').match(/<html lang="([^"]+)"/)?.[1];
  const manifest: Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }> =
    JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    chunk.imports?.forEach(visit);
  };
  visit('index.html');
  for (const started of manifest['index.html']?.dynamicImports ?? [])
    if (!/\/i18n\/messages\/[a-z]+\.ts$/.test(started) || started.endsWith(`/i18n/messages/${language}.ts`))
      visit(started);
  return [...files];
}

function urlsInStylesheet(css: string): string[] {
  return [...css.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)]
    .map(([, url = '']) => url)
    .filter((url) => !url.startsWith('data:') && !url.startsWith('#'))
    .map((url) => new URL(url, 'http://site/').pathname);
}

export function assertBuilt(distDir = DIST_DIR): void {
  if (!existsSync(join(distDir, 'index.html')) || !existsSync(LAMBDA_BUNDLE))
    throw new Error('dist/ or dist-functions/ is missing: run `npm run build` first');
}

export async function measureBundle(distDir = DIST_DIR) {
  assertBuilt(distDir);
  const sizes = measureDist(distDir);
  return {
    ...sizes,
    lambda: fileSize(LAMBDA_BUNDLE, relative(ROOT_DIR, LAMBDA_BUNDLE)),
    breakdown: await breakDownInitialJs(sizes.initialJs.files, distDir),
  };
}

/** Sizes per file of a built dist/, grouped by the part they play in loading `/`. */
export function measureDist(distDir = DIST_DIR) {
  const sized = (sitePath: string) =>
    fileSize(join(distDir, decodeURIComponent(sitePath)), sitePath.slice(1));
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  const initial = initialAssetsOf(indexHtml);
  const initialJs = initialScriptsOf(distDir).map(sized);
  // frontend/build.ts inlines the stylesheet: counted as CSS, it travels inside the HTML.
  const inlineStyles = inlineStylesOf(indexHtml);
  const css = inlineStyles.map((text, index) =>
    bytesSize(Buffer.from(text), `index.html <style>${index > 0 ? ` ${index + 1}` : ''} (inline CSS)`, true),
  );
  const firstViewMedia = [...new Set([...initial.media, ...inlineStyles.flatMap(urlsInStylesheet)])]
    .filter((path) => IMAGE_FILE.test(path) || /\.(woff2?|ttf|otf)$/.test(path))
    .map(sized);
  // Sorted as a walk of sorted folders would list them: a folder's files before a sibling `name-…`.
  const all = readdirSync(distDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(distDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort((a, b) => (a.replaceAll('/', '\0') < b.replaceAll('/', '\0') ? -1 : 1));
  const filesWhere = (test: (file: string) => boolean) =>
    all.filter(test).map((file) => fileSize(join(distDir, file), file));
  const initialFiles = new Set(initialJs.map((file) => file.file));
  const html = filesWhere((file) => file.endsWith('.html'));
  return {
    initialJs: total(initialJs),
    css: total(css),
    lazyJs: total(filesWhere((file) => file.endsWith('.js') && !initialFiles.has(file))),
    images: total(filesWhere((file) => IMAGE_FILE.test(file))),
    html: total(html),
    firstLoad: total([
      html.find((file) => file.file === 'index.html') as FileSize,
      ...initialJs,
      ...firstViewMedia,
      ...[...initial.manifests].map(sized),
    ]),
    landingHtml: html.filter((file) => LANDING_HTML.includes(file.file)),
  };
}

export type BundleMeasurement = Awaited<ReturnType<typeof measureBundle>>;

/**
 * Which modules make up the initial JavaScript, through the source maps of a second build of the same
 * config into a temporary folder, given the site's facts dist/ was built with (PAGE_SITE_CONFIG_FILE).
 */
async function breakDownInitialJs(initialJs: FileSize[], distDir: string) {
  const outDir = mkdtempSync(join(ROOT_DIR, 'node_modules/.cache/mandje-bench-'));
  try {
    const { build } = await import('vite');
    // Vite builds for whatever NODE_ENV says, and a test runner says `test`.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const siteConfig = readFileSync(join(distDir, PAGE_SITE_CONFIG_FILE), 'utf8');
    try {
      await build({
        configFile: join(ROOT_DIR, 'frontend/vite.config.ts'),
        logLevel: 'warn',
        mode: 'production',
        define: { __SITE_CONFIG__: JSON.stringify(JSON.parse(siteConfig)) },
        build: { outDir, emptyOutDir: true, sourcemap: 'hidden', copyPublicDir: false },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    const mappedScripts = initialScriptsOf(outDir);
    const matchesDist =
      mappedScripts.length === initialJs.length &&
      mappedScripts.every(
        (path, index) =>
          path.slice(1) === initialJs[index]?.file &&
          readFileSync(join(outDir, path)).equals(readFileSync(join(distDir, path))),
      );

    const bytesBySource = new Map<string, number>();
    let reactGzipBytes = 0;
    let nonReactGzipBytes = 0;
    for (const path of mappedScripts) {
      const code = readFileSync(join(outDir, path), 'utf8');
      const mapFile = join(outDir, `${path}.map`);
      // A chunk of the bundler's own (its runtime) has no map.
      const pieces = existsSync(mapFile)
        ? attributeCode(code, JSON.parse(readFileSync(mapFile, 'utf8')), join(outDir, path, '..'))
        : [{ text: code, source: '(bundler runtime)' }];
      for (const { source, text } of pieces)
        bytesBySource.set(source, (bytesBySource.get(source) ?? 0) + Buffer.byteLength(text));
      const textOf = (react: boolean) =>
        pieces
          .filter(({ source }) => REACT_PACKAGES.has(packageOf(source)) === react)
          .map(({ text }) => text);
      const [react, rest] = [textOf(true), textOf(false)];
      if (react.length > 0) reactGzipBytes += gzipSync(react.join(''), { level: 9 }).length;
      if (rest.length > 0) nonReactGzipBytes += gzipSync(rest.join(''), { level: 9 }).length;
    }

    const modules = [...bytesBySource]
      .map(([source, bytes]) => {
        const packageName = packageOf(source);
        return { source, packageName, react: REACT_PACKAGES.has(packageName), bytes };
      })
      .sort((a, b) => b.bytes - a.bytes);
    const sum = (react: boolean) =>
      modules.filter((module) => module.react === react).reduce((bytes, module) => bytes + module.bytes, 0);
    return {
      modules,
      reactBytes: sum(true),
      nonReactBytes: sum(false),
      reactGzipBytes,
      nonReactGzipBytes,
      matchesDist,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The npm package a source comes from, or `(app)` for the page's own code. */
const packageOf = (source: string) =>
  source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? (source.startsWith('(') ? source : '(app)');

// Cuts generated code into the stretches each source map segment covers, each named as the table shows it:
// relative to the repository, a dependency from its package on. Columns count UTF-16 code units, as
// JavaScript strings do; a segment runs to the next one on its line.
function attributeCode(
  code: string,
  map: { sources: string[]; sourceRoot?: string; mappings: string },
  mapDir: string,
) {
  const names = map.sources.map((name) => {
    const source = `${map.sourceRoot ?? ''}${name}`;
    const path =
      source.startsWith('\0') || /^[a-z]+:/i.test(source)
        ? source
        : relative(ROOT_DIR, resolve(mapDir, source)).split(sep).join('/');
    return path.replace(/^.*(?=node_modules\/)/, '');
  });
  const lines = code.split('\n');
  const pieces: { source: string; text: string }[] = [];
  decode(map.mappings).forEach((segments, lineNumber) => {
    const line = lines[lineNumber] ?? '';
    let start = 0;
    let source = '(unmapped)';
    const cut = (end: number) => {
      if (end > start) pieces.push({ source, text: line.slice(start, end) });
      start = end;
    };
    for (const [column, sourceIndex] of segments) {
      cut(column);
      source = sourceIndex === undefined ? '(unmapped)' : (names[sourceIndex] ?? '(unmapped)');
    }
    cut(line.length);
    if (lineNumber < lines.length - 1) pieces.push({ source: '(unmapped)', text: '\n' });
  });
  return pieces;
}

type Check = BudgetCheck<BundleMeasurement>;
const maxKb = (
  name: string,
  limit: keyof typeof BUNDLE_BUDGETS,
  measure: Check['measure'],
  explain?: Check['explain'],
): Check => ({ name, kind: 'max', limit: BUNDLE_BUDGETS[limit], measure, format: kb, explain });
const listed = (files: FileSize[], key: 'transferBytes' | 'brotliBytes') =>
  files.map((file) => `${file.file} ${kb(file[key])}`).join(', ');
const budget = {
  initialJs: maxKb(
    'Initial JavaScript of / (gzip)',
    'initialJsGzipBytes',
    (bundle) => bundle.initialJs.gzipBytes,
  ),
  nonReact: maxKb(
    'Initial JavaScript of / without React (gzip)',
    'nonReactInitialJsGzipBytes',
    (bundle) => bundle.breakdown.nonReactGzipBytes,
    ({ breakdown }) =>
      `largest: ${breakdown.modules
        .filter((module) => !module.react)
        .slice(0, 5)
        .map((module) => `${module.source} ${kb(module.bytes)}`)
        .join(', ')} (minified)`,
  ),
  css: maxKb('CSS of / (gzip)', 'cssGzipBytes', (bundle) => bundle.css.gzipBytes),
  firstLoad: maxKb(
    'First-load bytes of /',
    'firstLoadBytes',
    (bundle) => bundle.firstLoad.transferBytes,
    (bundle) => listed(bundle.firstLoad.files, 'transferBytes'),
  ),
  landingHtml: maxKb(
    'HTML of / and /en/ (brotli, each)',
    'landingHtmlBrotliBytes',
    (bundle) => Math.max(...bundle.landingHtml.map((file) => file.brotliBytes)),
    (bundle) => listed(bundle.landingHtml, 'brotliBytes'),
  ),
  lambda: maxKb('Lambda bundle (minified)', 'lambdaBundleBytes', (bundle) => bundle.lambda.rawBytes),
};
export const BUNDLE_BUDGET_CHECKS = Object.values(budget);

export function bundleSections(bundle: BundleMeasurement): BenchSection[] {
  const row = (what: string, size: Omit<FileSize, 'file'>, budget = '') => [
    what,
    ...[size.rawBytes, size.gzipBytes, size.brotliBytes].map(kb),
    budget,
  ];
  const { breakdown } = bundle;
  const budgets = BUNDLE_BUDGET_CHECKS.map((check) => evaluateBudget(check, bundle));
  return [
    {
      name: 'bundle',
      title: 'Bundle (dist/, what the first view of / downloads)',
      results: { ...bundle, breakdown: undefined, budgets },
      budgets,
      table: {
        head: ['File', 'Raw', 'gzip', 'brotli', 'Budget (gzip)'],
        rows: [
          ...bundle.initialJs.files.map((file) => row(`${file.file} (initial JS)`, file)),
          row('**Initial JS, total**', bundle.initialJs, describeBudget(budget.initialJs)),
          [
            'of which not React (react, react-dom, scheduler)',
            kb(breakdown.nonReactBytes),
            kb(breakdown.nonReactGzipBytes),
            '',
            describeBudget(budget.nonReact),
          ],
          ...bundle.css.files.map((file) => row(`${file.file} (CSS)`, file)),
          row('**CSS, total**', bundle.css, describeBudget(budget.css)),
          ...bundle.lazyJs.files.map((file) => row(`${file.file} (loaded when needed)`, file)),
          ...bundle.images.files.map((file) => row(`${file.file} (image)`, file)),
          ...bundle.html.files.map((file) =>
            row(
              `${file.file} (prerendered)`,
              file,
              LANDING_HTML.includes(file.file) ? `brotli ${describeBudget(budget.landingHtml)}` : '',
            ),
          ),
          [
            '**First load of /** (HTML, initial JS, CSS, icon, manifest; brotli for text)',
            kb(bundle.firstLoad.rawBytes),
            '',
            kb(bundle.firstLoad.transferBytes),
            describeBudget(budget.firstLoad),
          ],
          row(`${bundle.lambda.file} (Lambda)`, bundle.lambda, `raw ${describeBudget(budget.lambda)}`),
        ],
      },
      notes: [
        `Level 9 gzip and quality 11 brotli. "Not React" is the initial JavaScript's code that is not react, react-dom or scheduler (bundler glue included), gzipped on its own.`,
      ],
    },
    {
      name: 'bundleModules',
      title: 'Largest modules in the initial JavaScript of / (minified)',
      results: { ...breakdown },
      table: {
        head: ['Module', 'Package', 'Bytes', 'Share'],
        rows: breakdown.modules
          .slice(0, 10)
          .map((module) => [
            `\`${module.source}\``,
            module.react ? `${module.packageName} (React)` : module.packageName,
            kb(module.bytes),
            `${((module.bytes / (breakdown.reactBytes + breakdown.nonReactBytes)) * 100).toFixed(1)} %`,
          ]),
      },
      notes: [
        `React's packages: ${kb(breakdown.reactBytes)} minified (${kb(breakdown.reactGzipBytes)} gzip); everything else: ${kb(breakdown.nonReactBytes)} (${kb(breakdown.nonReactGzipBytes)} gzip). Attributed through the source map of an identical build${breakdown.matchesDist ? '' : ' (**which did not match dist/: rebuild and measure again**)'}.`,
      ],
    },
  ];
}
