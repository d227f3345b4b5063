/** What the built page costs a visitor in bytes, read from dist/ and dist-functions/ as built. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { inlineStylesOf } from '#contract/security-headers';
import { PAGE_SITE_CONFIG_FILE } from '#contract/site-config';
import { BUNDLE_BUDGETS, budget } from './budgets';

export const ROOT_DIR = resolve(import.meta.dirname, '..');
const DIST_DIR = join(ROOT_DIR, 'dist');
export const LAMBDA_BUNDLE = join(ROOT_DIR, 'dist-functions/api/index.mjs');

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export type Table = { head: string[]; rows: (string | number)[][] };
export const markdownTable = ({ head, rows }: Table) =>
  [head, head.map(() => '---'), ...rows]
    .map((row) => `| ${row.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`)
    .join('\n');

const SIZES = ['rawBytes', 'gzipBytes', 'brotliBytes', 'transferBytes'] as const;
type FileSize = Record<(typeof SIZES)[number], number> & { file: string };

/** `transferBytes` is what crosses the network: brotli for what the runner and CloudFront compress. */
function sizeOf(
  bytes: Buffer,
  file: string,
  text = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/.test(file),
) {
  const params = { [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
  const brotliBytes = brotliCompressSync(bytes, { params }).length;
  const gzipBytes = gzipSync(bytes, { level: 9 }).length;
  return {
    file,
    rawBytes: bytes.length,
    gzipBytes,
    brotliBytes,
    transferBytes: text ? brotliBytes : bytes.length,
  };
}

const fileSize = (dir: string, file: string) => sizeOf(readFileSync(join(dir, file)), file);

const total = (files: FileSize[]) => ({
  files,
  ...(Object.fromEntries(SIZES.map((key) => [key, files.reduce((sum, file) => sum + file[key], 0)])) as Omit<
    FileSize,
    'file'
  >),
});

/** Same-site images, fonts and manifests the HTML and inline CSS of `/` make the browser fetch at once. */
function firstViewAssetsOf(html: string, css: string[]) {
  const paths = new Set<string>();
  for (const [tag] of html.matchAll(/<(link|img)\b[^>]*>/gi)) {
    const attribute = (key: string) => tag.match(new RegExp(`\\s${key}\\s*=\\s*"([^"]*)"`, 'i'))?.[1] ?? '';
    const rel = attribute('rel').toLowerCase().split(/\s+/);
    const img = /^<img/i.test(tag);
    const path = attribute(img ? 'src' : 'href');
    const preloaded = rel.includes('preload') && /^(image|font)$/.test(attribute('as'));
    if ((img || rel.includes('icon') || rel.includes('manifest') || preloaded) && /^\/(?!\/)/.test(path))
      paths.add(path);
  }
  for (const [, url = ''] of css.join('\n').matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g))
    if (!/^(data:|#)/.test(url)) paths.add(new URL(url, 'http://site/').pathname);
  return [...paths].filter((path) =>
    /\.(png|svg|ico|webp|avif|jpe?g|gif|woff2?|ttf|otf|webmanifest|json)$/.test(path),
  );
}

/**
 * The scripts `/` runs at start, from Vite's build manifest: the entry, what it imports, and what it starts
 * after the first paint (frontend/src/boot.ts) except the other language's copy.
 */
function initialScriptsOf(distDir: string): string[] {
  const language = readFileSync(join(distDir, 'index.html'), 'utf8').match(/<html lang="([^"]+)"/)?.[1];
  const manifest: Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }> =
    JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit('index.html');
  for (const started of manifest['index.html']?.dynamicImports ?? [])
    if (!/\/i18n\/messages\/[a-z]+\.ts$/.test(started) || started.endsWith(`/i18n/messages/${language}.ts`))
      visit(started);
  return [...files];
}

export function assertBuilt(): void {
  if (!existsSync(join(DIST_DIR, 'index.html')) || !existsSync(LAMBDA_BUNDLE))
    throw new Error('dist/ or dist-functions/ is missing: run `npm run build` first');
}

/** Sizes of the built dist/, grouped by the part they play in loading `/`, and the API's bundle. */
export function measureSizes() {
  assertBuilt();
  const indexHtml = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const initialJs = initialScriptsOf(DIST_DIR).map((file) => fileSize(DIST_DIR, file));
  // frontend/build.ts inlines the stylesheet: counted as CSS, it travels inside the HTML.
  const inlineStyles = inlineStylesOf(indexHtml);
  const all = readdirSync(DIST_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DIST_DIR, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .sort();
  const filesWhere = (test: (file: string) => boolean) =>
    all.filter(test).map((file) => fileSize(DIST_DIR, file));
  const html = filesWhere((file) => file.endsWith('.html'));
  const firstViewAssets = firstViewAssetsOf(indexHtml, inlineStyles).map((path) =>
    fileSize(DIST_DIR, decodeURIComponent(path).slice(1)),
  );
  return {
    initialJs: total(initialJs),
    css: total(
      inlineStyles.map((text, index) => sizeOf(Buffer.from(text), `index.html <style> ${index + 1}`, true)),
    ),
    lazyJs: total(filesWhere((file) => file.endsWith('.js') && !initialJs.some((js) => js.file === file))),
    images: total(filesWhere((file) => /\.(png|svg|ico|webp|avif|jpe?g|gif)$/.test(file))),
    html: total(html),
    firstLoad: total([
      html.find((file) => file.file === 'index.html') as FileSize,
      ...initialJs,
      ...firstViewAssets,
    ]),
    landingHtml: html.filter((file) => ['index.html', 'en/index.html'].includes(file.file)),
    lambda: sizeOf(readFileSync(LAMBDA_BUNDLE), relative(ROOT_DIR, LAMBDA_BUNDLE)),
  };
}

/** The initial JavaScript of `/` built again with react, react-dom and scheduler left as imports. */
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
    return total(initialScriptsOf(outDir).map((file) => fileSize(outDir, file)));
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function measureBundle() {
  return { ...measureSizes(), initialJsWithoutReact: await measureWithoutReact() };
}

type Sizes = ReturnType<typeof measureSizes>;
export type BundleMeasurement = Awaited<ReturnType<typeof measureBundle>>;

/** Without `initialJsWithoutReact` (what `npm run build` measures), that budget is left out. */
export function bundleBudgets(bundle: Sizes & { initialJsWithoutReact?: { gzipBytes: number } }) {
  const landingHtml = Math.max(...bundle.landingHtml.map((file) => file.brotliBytes));
  const checks: [string, keyof typeof BUNDLE_BUDGETS, number | undefined][] = [
    ['Initial JavaScript of / (gzip)', 'initialJsGzipBytes', bundle.initialJs.gzipBytes],
    [
      'Initial JavaScript of / without React (gzip)',
      'nonReactInitialJsGzipBytes',
      bundle.initialJsWithoutReact?.gzipBytes,
    ],
    ['CSS of / (gzip)', 'cssGzipBytes', bundle.css.gzipBytes],
    ['First-load bytes of /', 'firstLoadBytes', bundle.firstLoad.transferBytes],
    ['HTML of / and /en/ (brotli, each)', 'landingHtmlBrotliBytes', landingHtml],
    ['Lambda bundle (minified)', 'lambdaBundleBytes', bundle.lambda.rawBytes],
  ];
  return checks.flatMap(([name, key, bytes]) =>
    bytes === undefined ? [] : [budget(name, bytes, kb, { max: BUNDLE_BUDGETS[key] })],
  );
}

/** Each group's size: what `npm run build` prints, and the bench's table. */
export function bundleTable(bundle: Sizes): Table {
  const groups = {
    'Initial JS of /': bundle.initialJs,
    'CSS, inline in /': bundle.css,
    'First load of / (brotli for text)': bundle.firstLoad,
    [`${bundle.lazyJs.files.length} scripts loaded when needed`]: bundle.lazyJs,
    [`${bundle.images.files.length} images`]: bundle.images,
    [`${bundle.html.files.length} prerendered pages`]: bundle.html,
    ...Object.fromEntries(bundle.landingHtml.map((file) => [file.file, file])),
    [`${bundle.lambda.file} (Lambda)`]: bundle.lambda,
  };
  return {
    head: ['What', 'Raw', 'gzip', 'brotli'],
    rows: Object.entries(groups).map(([what, size]) => [
      what,
      ...[size.rawBytes, size.gzipBytes, size.brotliBytes].map(kb),
    ]),
  };
}

export const bundleSection = (bundle: BundleMeasurement) => ({
  table: bundleTable(bundle),
  budgets: bundleBudgets(bundle),
  notes:
    'Level 9 gzip and quality 11 brotli. "Not React" is the initial JavaScript of the same build with react, react-dom and scheduler left as imports. First load: the HTML of `/`, its initial scripts, and the icons, fonts and manifest its first view asks for, as transferred.',
});
