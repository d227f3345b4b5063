/**
 * A local runner in a process of its own, for the benchmarks: the handler binds to the store of the first
 * runner in a process, and the soak measures the runner's memory apart from the load generator's.
 * Usage: tsx bench/runner-process-entry.ts <dataDir> <distDir>. Once it listens, it writes one JSON line
 * `{ url, storeEndpoint }` to file descriptor 3; SIGTERM closes it as it closes `npm start`.
 */
import { createWriteStream } from 'node:fs';
import { storeAddressFromEnvironment } from '../local/local-store-client';
import { closeOnSignals, startLocalRunner } from '../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: runner-process-entry.ts <dataDir> <distDir>');

const runner = await startLocalRunner({ port: 0, dataDir, distDir });
// The runner points the AWS SDK at its store through the environment, as Lambda configures a function.
const ready = { url: runner.url, storeEndpoint: storeAddressFromEnvironment() };
createWriteStream('', { fd: 3 }).end(`${JSON.stringify(ready)}\n`);
closeOnSignals(runner);
