/** `npm start`: the whole product on HOST:PORT (default 127.0.0.1:3000), the waitlist kept in DATA_DIR. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataDirFromEnvironment, IN_MEMORY } from './data-dir';
import { closeOnSignals, startLocalRunner } from './runner';

// Files this process makes (LevelDB's too) are its owner's only; set here, not in the library tests run.
process.umask(0o077);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST;
const dataDir = dataDirFromEnvironment();
const distDir = resolve(import.meta.dirname, '../dist');

function fail(reason: string): never {
  console.error(`Mandje could not start: ${reason}.`);
  process.exit(1);
}

if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number, not "${process.env.PORT}"`);
if (host?.trim() === '') fail('HOST must be an address to listen on (127.0.0.1 unless set), not empty');
if (!existsSync(resolve(distDir, 'index.html')))
  fail('dist/ has no built page (run `npm run build`; `npm start` does both)');

const runner = await startLocalRunner({ port, host, dataDir, distDir }).catch((error: Error) =>
  fail(error.message),
);
closeOnSignals(runner);
const where = dataDir === IN_MEMORY ? 'in memory only' : `in ${dataDir}`;
const reach = runner.listensOnAllInterfaces
  ? ', listening on all interfaces (other machines can reach it)'
  : '';
console.log(
  `Mandje is running at ${runner.url} (English: ${runner.url}en/)${reach}, waitlist kept ${where}. Ctrl-C stops it.`,
);
console.log(`Confirmation mails are written to ${runner.outboxDir}; each one's link is printed here.`);
