/**
 * The local store is its owner's: the runner's store listens on a Unix socket inside the 0700 data folder,
 * never on a network port, so another user of the machine cannot read the waitlist, while the owner (the
 * runner, the operator's tool) can. Run as root, the other user is `nobody`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { runningStoreEndpoint, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

afterEach(killRunnerChildren);

const NOBODY = { uid: 65534, gid: 65534 };

/** What a raw connection to `socketPath` gives a process of user nobody: 'connected' or the error's code. */
function connectAsNobody(socketPath: string): Promise<string> {
  const script = `require('node:net').connect(process.argv[1])
    .on('connect', () => { console.log('connected'); process.exit(0); })
    .on('error', (error) => { console.log(error.code); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, socketPath], { ...NOBODY, cwd: '/' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', () => resolve(output.trim())));
}

async function scanAsOwner(address: string): Promise<string[]> {
  const client = localDocumentClient(address, { maxAttempts: 1 });
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: LOCAL_TABLE_NAME }));
    return Items.map((item) => String(item.email));
  } finally {
    client.destroy();
  }
}

describe('the local store', () => {
  it('lets the owner read the records through its socket, and refuses user nobody', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-socket-'));
    const runner = await startRunnerChild(dataDir, { env: { SIGNUP_RATE_LIMIT: '0' } });
    const email = `socket.${Date.now()}@example.nl`;
    expect((await postJoin(runner.url, { email, language: 'nl' })).status).toBe(201);

    const address = runningStoreEndpoint(dataDir) as string;
    expect(address).toBe(join(dataDir, 'store.sock'));
    expect(await scanAsOwner(address)).toContain(email);
    expect(await connectAsNobody(address)).toBe('EACCES');
    expect(statSync(address).mode & 0o777).toBe(0o600);
    await runner.stop();
  });

  it('keeps an in-memory store on a socket in a folder of its owner only', async () => {
    const store = await startLocalDynamoDB(':memory:');
    try {
      expect(statSync(dirname(store.endpoint)).mode & 0o777).toBe(0o700);
      expect(await connectAsNobody(store.endpoint)).toBe('EACCES');
    } finally {
      await store.close();
    }
  });
});
