/** The operator's tool as the operator runs it, on a local store seeded as no runner would. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../../local/local-store-client';

type Run = { code: number; stdout: string; stderr: string };

/** Runs `npm run waitlist -- ...args`: what it printed and its exit code. */
export const waitlistTool = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'operator/waitlist-tool.ts', ...args], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (failed: Run) => failed,
  );

export const person = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  mailbox: mailboxHashOf(email),
  emailAsEntered: email,
  language: 'nl',
  status: 'pending',
  createdAt: '2026-01-01T00:00:00.000Z',
  consentVersion: '1',
  expiresAt: 4_000_000_000,
  ...extra,
});

/** A store in a new folder, or `dataDir`'s, with these items and whatever `more` writes; returns its folder. */
export async function seededStore(
  items: Record<string, unknown>[],
  more?: (client: DynamoDBDocumentClient) => Promise<unknown>,
  dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-')),
): Promise<string> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    await ensureWaitlistTable(store.endpoint);
    for (const Item of items) await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item }));
    await more?.(client);
  } finally {
    client.destroy();
    await store.close();
  }
  return dataDir;
}
