/**
 * The last step of `npm run build`: what a first visit of `/` downloads, per file and against the budgets
 * `npm test` holds it to (bench/budgets.ts). Kept out of the build itself, which imports nothing from
 * bench/. Fails only when the page has no script: budgets fail `npm test` (test/budgets/), not the build,
 * so that `npm start` still runs a page that is a little over one.
 */
import { BUNDLE_BUDGETS } from './budgets';
import { DIST_DIR, type FileSize, measureDist } from './bundle';
import { kb } from './table';

const sizes = measureDist(DIST_DIR);
const groups: [string, FileSize[]][] = [
  ['initial JS', sizes.initialJs.files],
  ['CSS', sizes.css.files],
  ['when needed', sizes.lazyJs.files],
  ['image', sizes.images.files],
  ['page', sizes.html.files],
];
console.log('\nBuilt files (raw / gzip / brotli):');
for (const [role, files] of groups)
  for (const file of files)
    console.log(
      `  ${file.file.padEnd(36)} ${role.padEnd(12)} ${[file.rawBytes, file.gzipBytes, file.brotliBytes]
        .map((bytes) => kb(bytes).padStart(10))
        .join(' ')}`,
    );

const over = (bytes: number, budget: number) => (bytes > budget ? ', OVER BUDGET' : '');
const { initialJs, css, firstLoad, landingHtml } = sizes;
console.log(
  [
    `\nInitial JavaScript of /: ${kb(initialJs.gzipBytes)} gzip in ${initialJs.files.length} file(s) (budget ${kb(BUNDLE_BUDGETS.initialJsGzipBytes)}${over(initialJs.gzipBytes, BUNDLE_BUDGETS.initialJsGzipBytes)})`,
    `CSS of /: ${kb(css.gzipBytes)} gzip (budget ${kb(BUNDLE_BUDGETS.cssGzipBytes)}${over(css.gzipBytes, BUNDLE_BUDGETS.cssGzipBytes)})`,
    `First load of /: ${kb(firstLoad.transferBytes)} with brotli (budget ${kb(BUNDLE_BUDGETS.firstLoadBytes)}${over(firstLoad.transferBytes, BUNDLE_BUDGETS.firstLoadBytes)})`,
    ...landingHtml.map(
      (page) =>
        `HTML of /${page.file.replace(/index\.html$/, '')}: ${kb(page.brotliBytes)} with brotli (budget ${kb(BUNDLE_BUDGETS.landingHtmlBrotliBytes)}${over(page.brotliBytes, BUNDLE_BUDGETS.landingHtmlBrotliBytes)})`,
    ),
  ].join('\n'),
);
// A page without a script is a broken build.
if (initialJs.files.length === 0) {
  console.error('No script was found in index.html.');
  process.exitCode = 1;
}
