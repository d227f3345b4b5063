// The last step of `npm run build`: what a first visit of `/` downloads, against the budgets. Over a budget
// fails `npm test`, not the build, so that `npm start` still runs.
import { bundleBudgets, bundleTable, markdownTable, measureSizes } from './bundle';

const sizes = measureSizes();
console.log(`\nBuilt files:\n\n${markdownTable(bundleTable(sizes))}\n`);
// The budget of the build without React needs a second build: the bench and `npm test` measure it.
for (const { name, value, budget, met } of bundleBudgets(sizes))
  console.log(`${met ? 'within' : 'OVER'}: ${name} ${value} (${budget})`);
// A page without a script is a broken build.
if (sizes.initialJs.files.length === 0) {
  console.error('No script was found in index.html.');
  process.exitCode = 1;
}
