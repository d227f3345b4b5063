/**
 * Starts the local runner in a process of its own and prints its URL (and the folder its confirmation mails
 * go to): the restart and shutdown tests need a runner that really stops and starts again, on signals as
 * `npm start` does, and the engines tier a runner it can stop.
 * Usage: tsx start-runner-process.ts <dataDir> <distDir>
 */
import { closeOnSignals, startLocalRunner } from '../../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: start-runner-process.ts <dataDir> <distDir>');
const runner = await startLocalRunner({ port: 0, dataDir, distDir });
// Listening for signals before saying READY: a test may send one the moment it reads that line.
closeOnSignals(runner);
console.log(`READY ${runner.url} ${runner.outboxDir ?? ''}`.trimEnd());
