/**
 * Starts the local runner in a process of its own and prints its URL: the restart test needs a runner
 * that really stops and starts again. Usage: tsx start-runner-process.ts <dataDir> <distDir>
 */
import { startLocalRunner } from '../../local/runner';

const [dataDir, distDir] = process.argv.slice(2);
if (!dataDir || !distDir) throw new Error('usage: start-runner-process.ts <dataDir> <distDir>');
const runner = await startLocalRunner({ port: 0, dataDir, distDir });
console.log(`READY ${runner.url}`);
process.once('SIGTERM', () => {
  runner.close().then(() => process.exit(0));
});
