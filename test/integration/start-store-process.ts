/**
 * Runs the local store (dynalite on a data folder) in a process of its own and prints its address (a socket path), so a
 * test can take the store down the way a store dies: by killing its process mid-request.
 * Usage: tsx start-store-process.ts <dataDir>
 */
import { startLocalDynamoDB } from '../../local/local-dynamodb';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: start-store-process.ts <dataDir>');
const store = await startLocalDynamoDB(dataDir);
// The test holds our stdin open; if it dies without killing us (a timeout, Ctrl-C), we end too.
process.stdin.on('end', () => process.exit(0)).resume();
console.log(`READY ${store.endpoint}`);
