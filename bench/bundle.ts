/** What the built page costs a visitor in bytes, read from dist/ and dist-functions/ as built. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { inlineStylesOf } from '#contract/security-headers';
import { PAGE_SITE_CONFIG_FILE } from '#contract/site-config';
import { BUNDLE_BUDGETS, type BudgetCheck, describeBudget, evaluateBudget } from './budgets';
import { type BenchSection, kb } from './report';

export const ROOT_DIR = resolve(import.meta.dirname, '..');
export const DIST_DIR = join(ROOT_DIR, 'dist');
export const LAMBDA_BUNDLE = join(ROOT_DIR, 'dist-functions/api/index.mjs');

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

export function assertBuilt(): void {
  if (!existsSync(join(DIST_DIR, 'index.html')) || !existsSync(LAMBDA_BUNDLE))
    throw new Error('dist/ or dist-functions/ is missing: run `npm run build` first');
}

/** Sizes per file of the built dist/, grouped by the part they play in loading `/`, and the API's bundle. */
export function measureSizes() {
  assertBuilt();
  const sized = (sitePath: string) =>
    fileSize(join(DIST_DIR, decodeURIComponent(sitePath)), sitePath.slice(1));
  const indexHtml = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const initial = initialAssetsOf(indexHtml);
  const initialJs = initialScriptsOf(DIST_DIR).map(sized);
  // frontend/build.ts inlines the stylesheet: counted as CSS, it travels inside the HTML.
  const inlineStyles = inlineStylesOf(indexHtml);
  const css = inlineStyles.map((text, index) =>
    bytesSize(Buffer.from(text), `index.html <style>${index > 0 ? ` ${index + 1}` : ''} (inline CSS)`, true),
  );
  const firstViewMedia = [...new Set([...initial.media, ...inlineStyles.flatMap(urlsInStylesheet)])]
    .filter((path) => IMAGE_FILE.test(path) || /\.(woff2?|ttf|otf)$/.test(path))
    .map(sized);
  // Sorted as a walk of sorted folders would list them: a folder's files before a sibling `name-…`.
  const all = readdirSync(DIST_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DIST_DIR, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort((a, b) => (a.replaceAll('/', '\0') < b.replaceAll('/', '\0') ? -1 : 1));
  const filesWhere = (test: (file: string) => boolean) =>
    all.filter(test).map((file) => fileSize(join(DIST_DIR, file), file));
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
    lambda: fileSize(LAMBDA_BUNDLE, relative(ROOT_DIR, LAMBDA_BUNDLE)),
  };
}

/**
 * The initial JavaScript of `/` without React: the same config built again into a temporary folder with
 * react, react-dom and scheduler left as imports, given the site's facts dist/ was built with.
 */
async function measureWithoutReact() {
  const outDir = mkdtempSync(join(ROOT_DIR, 'node_modules/.cache/mandje-bench-'));
  // Vite builds for whatever NODE_ENV says, and a test runner says `test`.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const { build } = await import('vite');
    await build({
      configFile: join(ROOT_DIR, 'frontend/vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      define: { __SITE_CONFIG__: readFileSync(join(DIST_DIR, PAGE_SITE_CONFIG_FILE), 'utf8') },
      build: {
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        rolldownOptions: { external: /^(react|react-dom|scheduler)(\/|$)/ },
      },
    });
    return total(initialScriptsOf(outDir).map((path) => fileSize(join(outDir, path), path.slice(1))));
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function measureBundle() {
  return { ...measureSizes(), initialJsWithoutReact: await measureWithoutReact() };
}

type BundleSizes = ReturnType<typeof measureSizes>;
export type BundleMeasurement = Awaited<ReturnType<typeof measureBundle>>;

const maxKb = <Measurement extends BundleSizes>(
  name: string,
  limit: keyof typeof BUNDLE_BUDGETS,
  measure: (bundle: Measurement) => number,
  explain?: (bundle: Measurement) => string,
): BudgetCheck<Measurement> => ({
  name,
  kind: 'max',
  limit: BUNDLE_BUDGETS[limit],
  measure,
  format: kb,
  explain,
});
const listed = (files: FileSize[], key: 'gzipBytes' | 'brotliBytes' | 'transferBytes') =>
  files.map((file) => `${file.file} ${kb(file[key])}`).join(', ');
const budget = {
  initialJs: maxKb(
    'Initial JavaScript of / (gzip)',
    'initialJsGzipBytes',
    (bundle) => bundle.initialJs.gzipBytes,
  ),
  withoutReact: maxKb(
    'Initial JavaScript of / without React (gzip)',
    'nonReactInitialJsGzipBytes',
    (bundle: BundleMeasurement) => bundle.initialJsWithoutReact.gzipBytes,
    (bundle) => listed(bundle.initialJsWithoutReact.files, 'gzipBytes'),
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
export const BUNDLE_BUDGET_CHECKS: BudgetCheck<BundleMeasurement>[] = Object.values(budget);

/**
 * Every file with its role, and each total against its budget: the bench's table, and what `npm run build`
 * prints (without the build without React, which it does not make).
 */
export function bundleTable(bundle: BundleSizes & Partial<BundleMeasurement>): BenchSection['table'] {
  const row = (what: string, size: Omit<FileSize, 'file'>, budget = '') => [
    what,
    ...[size.rawBytes, size.gzipBytes, size.brotliBytes].map(kb),
    budget,
  ];
  const rowsOf = (files: FileSize[], role: string, budgetOf = (_file: FileSize) => '') =>
    files.map((file) => row(`${file.file} (${role})`, file, budgetOf(file)));
  const against = (check: BudgetCheck<never>, bytes: number, measured = '') =>
    `${measured}${describeBudget(check)}${bytes > check.limit ? ', **OVER**' : ''}`;
  const { initialJs, initialJsWithoutReact: withoutReact, css, firstLoad, lambda } = bundle;
  return {
    head: ['File', 'Raw', 'gzip', 'brotli', 'Budget (gzip)'],
    rows: [
      ...rowsOf(initialJs.files, 'initial JS'),
      row('**Initial JS, total**', initialJs, against(budget.initialJs, initialJs.gzipBytes)),
      ...(withoutReact
        ? [
            row(
              'of which not React (react, react-dom, scheduler)',
              withoutReact,
              against(budget.withoutReact, withoutReact.gzipBytes),
            ),
          ]
        : []),
      ...rowsOf(css.files, 'CSS'),
      row('**CSS, total**', css, against(budget.css, css.gzipBytes)),
      ...rowsOf(bundle.lazyJs.files, 'loaded when needed'),
      ...rowsOf(bundle.images.files, 'image'),
      ...rowsOf(bundle.html.files, 'prerendered', (file) =>
        LANDING_HTML.includes(file.file) ? against(budget.landingHtml, file.brotliBytes, 'brotli ') : '',
      ),
      [
        '**First load of /** (HTML, initial JS, CSS, icon, manifest; brotli for text)',
        kb(firstLoad.rawBytes),
        '',
        kb(firstLoad.transferBytes),
        against(budget.firstLoad, firstLoad.transferBytes),
      ],
      row(`${lambda.file} (Lambda)`, lambda, against(budget.lambda, lambda.rawBytes, 'raw ')),
    ],
  };
}

export function bundleSection(bundle: BundleMeasurement): BenchSection {
  const budgets = BUNDLE_BUDGET_CHECKS.map((check) => evaluateBudget(check, bundle));
  return {
    name: 'bundle',
    title: 'Bundle (dist/, what the first view of / downloads)',
    results: { ...bundle, budgets },
    budgets,
    table: bundleTable(bundle),
    notes: [
      `Level 9 gzip and quality 11 brotli. "Not React" is the initial JavaScript of the same build with react, react-dom and scheduler left as imports, not bundled.`,
    ],
  };
}
