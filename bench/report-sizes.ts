// The last step of `npm run build`: what a first visit of `/` downloads, against the budgets. Over a budget
// fails `npm test`, not the build, so that `npm start` still runs.
import { BUNDLE_BUDGETS } from './budgets';
import { measureDist } from './bundle';
import { kb } from './report';

const { initialJs, css, lazyJs, images, html, firstLoad, landingHtml } = measureDist();
console.log('\nBuilt files (raw / gzip / brotli):');
const roles = { 'initial JS': initialJs, CSS: css, 'when needed': lazyJs, image: images, page: html };
for (const [role, { files }] of Object.entries(roles))
  for (const { file, rawBytes, gzipBytes, brotliBytes } of files)
    console.log(
      `  ${file.padEnd(36)} ${role.padEnd(12)} ${[rawBytes, gzipBytes, brotliBytes].map((bytes) => kb(bytes).padStart(10)).join(' ')}`,
    );

const budget = (bytes: number, limit: number) =>
  `(budget ${kb(limit)}${bytes > limit ? ', OVER BUDGET' : ''})`;
console.log(
  [
    `\nInitial JavaScript of /: ${kb(initialJs.gzipBytes)} gzip in ${initialJs.files.length} file(s) ${budget(initialJs.gzipBytes, BUNDLE_BUDGETS.initialJsGzipBytes)}`,
    `CSS of /: ${kb(css.gzipBytes)} gzip ${budget(css.gzipBytes, BUNDLE_BUDGETS.cssGzipBytes)}`,
    `First load of /: ${kb(firstLoad.transferBytes)} with brotli ${budget(firstLoad.transferBytes, BUNDLE_BUDGETS.firstLoadBytes)}`,
    ...landingHtml.map(
      (page) =>
        `HTML of /${page.file.replace(/index\.html$/, '')}: ${kb(page.brotliBytes)} with brotli ${budget(page.brotliBytes, BUNDLE_BUDGETS.landingHtmlBrotliBytes)}`,
    ),
  ].join('\n'),
);
// A page without a script is a broken build.
if (initialJs.files.length === 0) {
  console.error('No script was found in index.html.');
  process.exitCode = 1;
}
