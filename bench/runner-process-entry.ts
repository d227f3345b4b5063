// `tsx bench/runner-process-entry.ts <dataDir> <distDir>`: a local runner in a process of its own, as the
// handler binds to the first runner's store in a process and the soak measures the runner's memory alone.
import { createWriteStream } from 'node:fs';
import { closeOnSignals, startLocalRunner } from '../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: runner-process-entry.ts <dataDir> <distDir>');
const runner = await startLocalRunner({ port: 0, dataDir, distDir });
createWriteStream('', { fd: 3 }).end(`${JSON.stringify({ url: runner.url })}\n`);
closeOnSignals(runner);
