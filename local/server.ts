/**
 * `npm start`: the whole product on one machine. The built page and the waitlist API on PORT (default
 * 3000), the waitlist kept in DATA_DIR (default .data; `:memory:` keeps nothing). SIGINT or SIGTERM
 * stops it cleanly: requests in progress are answered, then the store is closed; a second signal stops it
 * at once.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataDirFromEnvironment, IN_MEMORY } from './data-dir';
import { closeOnSignals, startLocalRunner } from './runner';

const port = Number(process.env.PORT ?? 3000);
const dataDir = dataDirFromEnvironment();
const distDir = resolve(import.meta.dirname, '../dist');

function fail(reason: string): never {
  console.error(`Mandje could not start: ${reason}.`);
  process.exit(1);
}

if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number, not "${process.env.PORT}"`);
if (!existsSync(resolve(distDir, 'index.html')))
  fail('dist/ has no built page (run `npm run build`; `npm start` does both)');

const runner = await startLocalRunner({ port, dataDir, distDir }).catch((error: Error) =>
  fail(error.message),
);
closeOnSignals(runner);
const where = dataDir === IN_MEMORY ? 'in memory only' : `in ${dataDir}`;
console.log(
  `Mandje is running at ${runner.url} (English: ${runner.url}en/), waitlist kept ${where}. Ctrl-C stops it.`,
);
