// The last step of `npm run build`: what a first visit of `/` downloads, against the budgets. Over a budget
// fails `npm test`, not the build, so that `npm start` still runs.
import { bundleTable, markdownTable, measureSizes } from './bundle';

const sizes = measureSizes();
console.log(`\nBuilt files (raw / gzip / brotli):\n\n${markdownTable(bundleTable(sizes))}`);
// A page without a script is a broken build.
if (sizes.initialJs.files.length === 0) {
  console.error('No script was found in index.html.');
  process.exitCode = 1;
}
