import { chmodSync, renameSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { basename, dirname, join } from 'node:path';

/**
 * Listens on `socketPath`, open to this user only. Made under a temporary name and renamed into place, so a
 * client never meets a missing path, only the old socket (refused) or the new one.
 */
export async function listenOnPrivateSocket(server: Server, socketPath: string): Promise<void> {
  const partial = join(dirname(socketPath), `.${basename(socketPath)}.${process.pid}`);
  rmSync(partial, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(partial, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(partial, 0o600);
  renameSync(partial, socketPath);
}
