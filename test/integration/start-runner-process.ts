/**
 * `tsx start-runner-process.ts <dataDir> <distDir>`: a runner in a process of its own, stopped by signals as
 * `npm start` is; prints its URL and its outbox.
 */
import { closeOnSignals, startLocalRunner } from '../../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: start-runner-process.ts <dataDir> <distDir>');
const runner = await startLocalRunner({ port: 0, dataDir, distDir });
// Listening for signals before saying READY: a test may send one the moment it reads that line.
closeOnSignals(runner);
console.log(`READY ${runner.url} ${runner.outboxDir ?? ''}`.trimEnd());
