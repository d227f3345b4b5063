/**
 * A local runner in a process of its own, for the benchmarks: the handler binds to the store of the first
 * runner in a process, and the soak measures the runner's memory apart from the load generator's.
 * Usage: tsx bench/runner-process-entry.ts <dataDir> <distDir>. Once it listens, it writes one JSON line
 * `{ url }` to file descriptor 3; SIGTERM closes it as it closes `npm start`.
 */
import { createWriteStream } from 'node:fs';
import { closeOnSignals, startLocalRunner } from '../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: runner-process-entry.ts <dataDir> <distDir>');

const runner = await startLocalRunner({ port: 0, dataDir, distDir });
createWriteStream('', { fd: 3 }).end(`${JSON.stringify({ url: runner.url })}\n`);
closeOnSignals(runner);
