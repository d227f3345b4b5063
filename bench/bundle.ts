/**
 * What the built page costs a visitor in bytes: the scripts and stylesheets the first view of `/` loads
 * (raw, gzip and brotli, per file), which modules make up that JavaScript, the lazily loaded chunks,
 * images, the prerendered HTML, the first-load total, and the Lambda bundle. Reads dist/ and
 * dist-functions/ as `npm run build` left them.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { decode } from '@jridgewell/sourcemap-codec';
import { inlineStylesOf } from '#contract/security-headers';
import { PAGE_SITE_CONFIG_FILE } from '#contract/site-config';
import { BUNDLE_BUDGETS, type BudgetCheck, describeBudget, evaluateBudget } from './budgets';
import type { BenchSection } from './report';
import { kb } from './table';

export const ROOT_DIR = resolve(import.meta.dirname, '..');
export const DIST_DIR = join(ROOT_DIR, 'dist');
export const LAMBDA_BUNDLE = join(ROOT_DIR, 'dist-functions/api/index.mjs');

/** React's own packages; the budget for everything else in the initial JavaScript is separate. */
const REACT_PACKAGES = new Set(['react', 'react-dom', 'scheduler']);
/** What the local runner and CloudFront compress (brotli when the browser accepts it, as all do). */
const TEXT_FILE = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/;
const IMAGE_FILE = /\.(png|svg|ico|webp|avif|jpe?g|gif)$/;
const FONT_FILE = /\.(woff2?|ttf|otf)$/;

export interface FileSize {
  /** Path under dist/ (or the repository, for the Lambda bundle). */
  file: string;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  /** What crosses the network: brotli for text, the file itself for images and fonts. */
  transferBytes: number;
}

export interface SizeTotal {
  files: FileSize[];
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  transferBytes: number;
}

export interface ModuleShare {
  /** Source path relative to the repository (`frontend/src/…`, `node_modules/react-dom/…`). */
  source: string;
  /** The npm package it comes from, or `(app)` for the page's own code. */
  packageName: string;
  react: boolean;
  /** Minified bytes in the initial JavaScript. */
  bytes: number;
}

export interface InitialJsBreakdown {
  /** Largest first; bytes no source map segment claims (bundler glue) count as `(unmapped)`. */
  modules: ModuleShare[];
  reactBytes: number;
  nonReactBytes: number;
  /** The React and the non-React parts of each initial script gzipped apart, summed over the scripts. */
  reactGzipBytes: number;
  nonReactGzipBytes: number;
  /** False when the source-mapped build did not produce the same initial scripts as dist/. */
  matchesDist: boolean;
}

/** The sizes of what dist/ holds, as `npm run build` prints them. */
export interface DistSizes {
  initialJs: SizeTotal;
  css: SizeTotal;
  lazyJs: SizeTotal;
  images: SizeTotal;
  html: SizeTotal;
  /** HTML of `/`, its initial scripts and stylesheets, the images and fonts its first view asks for, the manifest. */
  firstLoad: SizeTotal;
  /** The landing page's HTML in each language (`/`, `/en/`). */
  landingHtml: FileSize[];
}

export interface BundleMeasurement extends DistSizes {
  lambda: FileSize;
  breakdown: InitialJsBreakdown;
}

export function fileSize(path: string, file = relative(DIST_DIR, path)): FileSize {
  return bytesSize(readFileSync(path), file, TEXT_FILE.test(path));
}

function bytesSize(bytes: Buffer, file: string, text: boolean): FileSize {
  const gzipBytes = gzipSync(bytes, { level: 9 }).length;
  const brotliBytes = brotliSize(bytes);
  const transferBytes = text ? brotliBytes : bytes.length;
  return { file, rawBytes: bytes.length, gzipBytes, brotliBytes, transferBytes };
}

function brotliSize(bytes: Buffer): number {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }).length;
}

function total(files: FileSize[]): SizeTotal {
  const sum = (key: keyof Omit<FileSize, 'file'>) => files.reduce((bytes, file) => bytes + file[key], 0);
  return {
    files,
    rawBytes: sum('rawBytes'),
    gzipBytes: sum('gzipBytes'),
    brotliBytes: sum('brotliBytes'),
    transferBytes: sum('transferBytes'),
  };
}

export function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

export interface InitialAssets {
  /** Site paths (`/assets/index-….js`) of scripts and modulepreloads. */
  scripts: string[];
  stylesheets: string[];
  /** Icons, `<img>` sources and preloaded images and fonts. */
  media: string[];
  /** The web manifest, which Chromium fetches with the page. */
  manifests: string[];
}

/** What a page's HTML makes the browser fetch before the first view: same-site paths only. */
export function initialAssetsOf(html: string): InitialAssets {
  const assets: InitialAssets = { scripts: [], stylesheets: [], media: [], manifests: [] };
  const add = (list: string[], path: string | undefined) => {
    if (path?.startsWith('/') && !path.startsWith('//') && !list.includes(path)) list.push(path);
  };
  for (const [, tag = '', attributeText = ''] of html.matchAll(/<(script|link|img)\b([^>]*)>/gi)) {
    const attributes = Object.fromEntries(
      [...attributeText.matchAll(/([\w:-]+)(?:\s*=\s*"([^"]*)")?/g)].map(([, name = '', value = '']) => [
        name.toLowerCase(),
        value,
      ]),
    );
    const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
    if (tag.toLowerCase() === 'script') add(assets.scripts, attributes.src);
    else if (tag.toLowerCase() === 'img') add(assets.media, attributes.src);
    else if (rel.includes('modulepreload')) add(assets.scripts, attributes.href);
    else if (rel.includes('stylesheet')) add(assets.stylesheets, attributes.href);
    else if (rel.includes('manifest')) add(assets.manifests, attributes.href);
    else if (rel.includes('icon') || (rel.includes('preload') && /^(image|font)$/.test(attributes.as ?? '')))
      add(assets.media, attributes.href);
  }
  return assets;
}

interface BuildManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * Site paths of the scripts a visit to `/` runs at start: the entry the HTML names, and what the entry
 * imports, statically or (frontend/src/boot.ts: the app, once the first paint is done) dynamically, with
 * their static imports. Read from Vite's build manifest (dist/.vite/manifest.json).
 */
export function initialScriptsOf(distDir: string): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const scripts = initialAssetsOf(html).scripts;
  const manifestFile = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: build with build.manifest on`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, BuildManifestChunk>;
  const entry = manifest['index.html'];
  if (!entry?.isEntry) throw new Error('the build manifest has no entry for index.html');
  const visited = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no ${key}`);
    if (visited.has(key)) return;
    visited.add(key);
    const path = `/${chunk.file}`;
    if (!scripts.includes(path)) scripts.push(path);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  // What the entry starts once the page has painted: the app, and the copy of the page's language only
  // (each language is a chunk of its own; the other is fetched when the visitor switches).
  const language = html.match(/<html lang="([^"]+)"/)?.[1];
  const otherLanguage = (key: string) =>
    /\/i18n\/messages\/[a-z]+\.ts$/.test(key) && !key.endsWith(`/i18n/messages/${language}.ts`);
  for (const started of entry.dynamicImports ?? []) if (!otherLanguage(started)) visit(started);
  return scripts;
}

/** Images and fonts a stylesheet refers to with `url(…)`, as site paths. */
function urlsInStylesheet(css: string, sitePath: string): string[] {
  return [...css.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)]
    .map(([, url = '']) => url)
    .filter((url) => !url.startsWith('data:') && !url.startsWith('#'))
    .map((url) => new URL(url, `http://site${sitePath}`).pathname);
}

function distPath(sitePath: string, distDir: string): string {
  const path = join(distDir, decodeURIComponent(sitePath));
  if (!existsSync(path)) throw new Error(`${sitePath} is referenced by the page but missing from dist/`);
  return path;
}

export function assertBuilt(distDir = DIST_DIR): void {
  if (!existsSync(join(distDir, 'index.html')) || !existsSync(LAMBDA_BUNDLE))
    throw new Error('dist/ or dist-functions/ is missing: run `npm run build` first');
}

/**
 * Measures dist/ and the Lambda bundle as built. The module breakdown comes from a second build of the
 * same Vite config with hidden source maps into a temporary folder (dist/ stays as it is): a few seconds.
 * It is given the site's facts dist/ was built with (PAGE_SITE_CONFIG_FILE), not this process's.
 */
export async function measureBundle(distDir = DIST_DIR): Promise<BundleMeasurement> {
  assertBuilt(distDir);
  const sizes = measureDist(distDir);
  return {
    ...sizes,
    lambda: fileSize(LAMBDA_BUNDLE, relative(ROOT_DIR, LAMBDA_BUNDLE)),
    breakdown: await breakDownInitialJs(sizes.initialJs.files, distDir),
  };
}

const LANDING_HTML = ['index.html', 'en/index.html'];

/** Sizes per file of a built dist/, grouped by the part they play in loading `/`. */
export function measureDist(distDir = DIST_DIR): DistSizes {
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  const initial = initialAssetsOf(indexHtml);
  const initialJs = initialScriptsOf(distDir).map((path) => fileSize(distPath(path, distDir), path.slice(1)));
  const linkedCss = initial.stylesheets.map((path) => fileSize(distPath(path, distDir), path.slice(1)));
  // The stylesheet inlined in the page (frontend/build.ts): counted as CSS, and travels inside the HTML.
  const inlineStyles = inlineStylesOf(indexHtml);
  const inlineCss = inlineStyles.map((css, index) =>
    bytesSize(Buffer.from(css), `index.html <style>${index > 0 ? ` ${index + 1}` : ''} (inline CSS)`, true),
  );
  const cssMedia = [
    ...initial.stylesheets.flatMap((path) =>
      urlsInStylesheet(readFileSync(distPath(path, distDir), 'utf8'), path),
    ),
    ...inlineStyles.flatMap((css) => urlsInStylesheet(css, '/')),
  ];
  const firstViewMedia = [...new Set([...initial.media, ...cssMedia])]
    .filter((path) => IMAGE_FILE.test(path) || FONT_FILE.test(path))
    .map((path) => fileSize(distPath(path, distDir), path.slice(1)));
  const manifests = initial.manifests.map((path) => fileSize(distPath(path, distDir), path.slice(1)));

  const all = listFiles(distDir).map((path) => relative(distDir, path).split(sep).join('/'));
  const initialFiles = new Set(initialJs.map((file) => file.file));
  const lazyJs = all
    .filter((file) => file.endsWith('.js') && !initialFiles.has(file))
    .map((file) => fileSize(join(distDir, file), file));
  const images = all
    .filter((file) => IMAGE_FILE.test(file))
    .map((file) => fileSize(join(distDir, file), file));
  const html = all
    .filter((file) => file.endsWith('.html'))
    .map((file) => fileSize(join(distDir, file), file));
  const indexPage = html.find((file) => file.file === 'index.html') ?? fileSize(join(distDir, 'index.html'));

  return {
    initialJs: total(initialJs),
    css: total([...linkedCss, ...inlineCss]),
    lazyJs: total(lazyJs),
    images: total(images),
    html: total(html),
    firstLoad: total([indexPage, ...initialJs, ...linkedCss, ...firstViewMedia, ...manifests]),
    landingHtml: html.filter((file) => LANDING_HTML.includes(file.file)),
  };
}

async function breakDownInitialJs(initialJs: FileSize[], distDir: string): Promise<InitialJsBreakdown> {
  const outDir = mkdtempSync(join(ROOT_DIR, 'node_modules/.cache/mandje-bench-'));
  try {
    const { build } = await import('vite');
    // Vite builds for whatever NODE_ENV says, and a test runner says `test`: build as `npm run build` does.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const siteConfigFile = join(distDir, PAGE_SITE_CONFIG_FILE);
    const builtWith = existsSync(siteConfigFile)
      ? { define: { __SITE_CONFIG__: JSON.stringify(JSON.parse(readFileSync(siteConfigFile, 'utf8'))) } }
      : {};
    try {
      await build({
        configFile: join(ROOT_DIR, 'frontend/vite.config.ts'),
        logLevel: 'warn',
        mode: 'production',
        ...builtWith,
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
      const mapDir = join(outDir, path, '..');
      // A chunk the bundler writes of its own (its runtime: the helpers chunks share) has no map.
      const pieces = existsSync(mapFile)
        ? attributeCode(code, JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapFile).map((piece) => ({
            ...piece,
            source:
              piece.source === undefined ? '(unmapped)' : sourceName(resolveSource(mapDir, piece.source)),
          }))
        : [{ text: code, source: '(bundler runtime)' }];
      const react: string[] = [];
      const rest: string[] = [];
      for (const piece of pieces) {
        const bytes = Buffer.byteLength(piece.text);
        bytesBySource.set(piece.source, (bytesBySource.get(piece.source) ?? 0) + bytes);
        (REACT_PACKAGES.has(packageOf(piece.source)) ? react : rest).push(piece.text);
      }
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

interface SourceMapFile {
  sources: string[];
  sourceRoot?: string;
  mappings: string;
}

function resolveSource(mapDir: string, source: string): string {
  if (source.startsWith('\0') || /^[a-z]+:/i.test(source)) return source;
  return relative(ROOT_DIR, resolve(mapDir, source)).split(sep).join('/');
}

/** A source path as the table shows it: the package's own path for dependencies. */
function sourceName(path: string): string {
  const inModules = path.lastIndexOf('node_modules/');
  return inModules === -1 ? path : path.slice(inModules);
}

function packageOf(source: string): string {
  const match = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return match?.[1] ?? (source.startsWith('(') ? source : '(app)');
}

/**
 * Cuts generated code into the stretches each source map segment covers. Columns count UTF-16 code
 * units, as JavaScript strings do; a segment runs to the next one on its line.
 */
export function attributeCode(
  code: string,
  map: SourceMapFile,
): { source: string | undefined; text: string }[] {
  const sourceRoot = map.sourceRoot ?? '';
  const lines = code.split('\n');
  const pieces: { source: string | undefined; text: string }[] = [];
  decode(map.mappings).forEach((segments, lineNumber) => {
    const line = lines[lineNumber] ?? '';
    let start = 0;
    let source: string | undefined;
    const cut = (end: number) => {
      if (end > start) pieces.push({ source, text: line.slice(start, end) });
      start = end;
    };
    // Each segment: generated column, then (if mapped) source index, line, column and maybe a name.
    for (const [column, sourceIndex] of segments) {
      cut(column);
      source = sourceIndex === undefined ? undefined : `${sourceRoot}${map.sources[sourceIndex] ?? ''}`;
    }
    cut(line.length);
    if (lineNumber < lines.length - 1) pieces.push({ source: undefined, text: '\n' });
  });
  return pieces;
}

export const BUNDLE_BUDGET_CHECKS: BudgetCheck<BundleMeasurement>[] = [
  {
    name: 'Initial JavaScript of / (gzip)',
    kind: 'max',
    limit: BUNDLE_BUDGETS.initialJsGzipBytes,
    measure: (bundle) => bundle.initialJs.gzipBytes,
    format: kb,
  },
  {
    name: 'Initial JavaScript of / without React (gzip)',
    kind: 'max',
    limit: BUNDLE_BUDGETS.nonReactInitialJsGzipBytes,
    measure: (bundle) => bundle.breakdown.nonReactGzipBytes,
    format: kb,
    explain: (bundle) =>
      `largest: ${largestModules(bundle.breakdown, false, 5)
        .map((module) => `${module.source} ${kb(module.bytes)}`)
        .join(', ')} (minified)`,
  },
  {
    name: 'CSS of / (gzip)',
    kind: 'max',
    limit: BUNDLE_BUDGETS.cssGzipBytes,
    measure: (bundle) => bundle.css.gzipBytes,
    format: kb,
  },
  {
    name: 'First-load bytes of /',
    kind: 'max',
    limit: BUNDLE_BUDGETS.firstLoadBytes,
    measure: (bundle) => bundle.firstLoad.transferBytes,
    format: kb,
    explain: (bundle) =>
      bundle.firstLoad.files.map((file) => `${file.file} ${kb(file.transferBytes)}`).join(', '),
  },
  {
    name: 'HTML of / and /en/ (brotli, each)',
    kind: 'max',
    limit: BUNDLE_BUDGETS.landingHtmlBrotliBytes,
    measure: (bundle) => Math.max(...bundle.landingHtml.map((file) => file.brotliBytes)),
    format: kb,
    explain: (bundle) => bundle.landingHtml.map((file) => `${file.file} ${kb(file.brotliBytes)}`).join(', '),
  },
  {
    name: 'Lambda bundle (minified)',
    kind: 'max',
    limit: BUNDLE_BUDGETS.lambdaBundleBytes,
    measure: (bundle) => bundle.lambda.rawBytes,
    format: kb,
  },
];

function largestModules(breakdown: InitialJsBreakdown, react: boolean | undefined, count: number) {
  return breakdown.modules.filter((module) => react === undefined || module.react === react).slice(0, count);
}

const budgetCell = (name: string) => {
  const check = BUNDLE_BUDGET_CHECKS.find((candidate) => candidate.name === name);
  return check ? describeBudget(check) : '';
};

/** The bundle's two tables: sizes per file with their budgets, and the largest modules of the initial JS. */
export function bundleSections(bundle: BundleMeasurement): BenchSection[] {
  const row = (what: string, size: FileSize | SizeTotal, budget = '') => [
    what,
    kb(size.rawBytes),
    kb(size.gzipBytes),
    kb(size.brotliBytes),
    budget,
  ];
  const results = BUNDLE_BUDGET_CHECKS.map((check) => evaluateBudget(check, bundle));
  const { breakdown } = bundle;
  const sizes: BenchSection = {
    name: 'bundle',
    title: 'Bundle (dist/, what the first view of / downloads)',
    results: { ...bundle, breakdown: undefined, budgets: results },
    table: {
      head: ['File', 'Raw', 'gzip', 'brotli', 'Budget (gzip)'],
      rows: [
        ...bundle.initialJs.files.map((file) => row(`${file.file} (initial JS)`, file)),
        row('**Initial JS, total**', bundle.initialJs, budgetCell('Initial JavaScript of / (gzip)')),
        [
          'of which not React (react, react-dom, scheduler)',
          kb(breakdown.nonReactBytes),
          kb(breakdown.nonReactGzipBytes),
          '',
          budgetCell('Initial JavaScript of / without React (gzip)'),
        ],
        ...bundle.css.files.map((file) => row(`${file.file} (CSS)`, file)),
        row('**CSS, total**', bundle.css, budgetCell('CSS of / (gzip)')),
        ...bundle.lazyJs.files.map((file) => row(`${file.file} (loaded when needed)`, file)),
        ...bundle.images.files.map((file) => row(`${file.file} (image)`, file)),
        ...bundle.html.files.map((file) =>
          row(
            `${file.file} (prerendered)`,
            file,
            LANDING_HTML.includes(file.file)
              ? `brotli ${budgetCell('HTML of / and /en/ (brotli, each)')}`
              : '',
          ),
        ),
        [
          '**First load of /** (HTML, initial JS, CSS, icon, manifest; brotli for text)',
          kb(bundle.firstLoad.rawBytes),
          '',
          kb(bundle.firstLoad.transferBytes),
          budgetCell('First-load bytes of /'),
        ],
        row(`${bundle.lambda.file} (Lambda)`, bundle.lambda, `raw ${budgetCell('Lambda bundle (minified)')}`),
      ],
    },
    notes: [
      `Level 9 gzip and quality 11 brotli. "Not React" is the initial JavaScript's code that is not react, react-dom or scheduler (bundler glue included), gzipped on its own.`,
    ],
  };
  const top = largestModules(breakdown, undefined, 10);
  const modules: BenchSection = {
    name: 'bundleModules',
    title: 'Largest modules in the initial JavaScript of / (minified)',
    results: { ...breakdown },
    table: {
      head: ['Module', 'Package', 'Bytes', 'Share'],
      rows: top.map((module) => [
        `\`${module.source}\``,
        module.react ? `${module.packageName} (React)` : module.packageName,
        kb(module.bytes),
        `${((module.bytes / (breakdown.reactBytes + breakdown.nonReactBytes)) * 100).toFixed(1)} %`,
      ]),
    },
    notes: [
      `React's packages: ${kb(breakdown.reactBytes)} minified (${kb(breakdown.reactGzipBytes)} gzip); everything else: ${kb(breakdown.nonReactBytes)} (${kb(breakdown.nonReactGzipBytes)} gzip). Attributed through the source map of an identical build${breakdown.matchesDist ? '' : ' (**which did not match dist/: rebuild and measure again**)'}.`,
    ],
  };
  return [sizes, modules];
}
