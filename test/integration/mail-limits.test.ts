/**
 * The limit table on one machine: its windows end as DynamoDB's time to live ends them on AWS. The budget
 * itself, over spellings of one mailbox, against a real store: mail-core.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PutCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_MAIL_LIMIT_TABLE_NAME, localDocumentClient } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';

afterAll(killRunnerChildren);

describe('the limit windows kept on one machine', () => {
  it('are deleted once they end, when the runner starts, as DynamoDB’s time to live deletes them on AWS; a suppressed mailbox, which has no end, is kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-limits-'));
    const now = Math.floor(Date.now() / 1000);
    const store = await startLocalDynamoDB(dataDir);
    await ensureWaitlistTable(store.endpoint);
    const client = localDocumentClient(store.endpoint, { maxAttempts: 1 });
    const put = (key: string, expiresAt: number) =>
      client.send(
        new PutCommand({
          TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
          Item: { [MAIL_LIMIT_TABLE_KEY.name]: key, expiresAt, requestIds: new Set(['r']) },
        }),
      );
    await put('ended', now - 60);
    await put('current', now + 3_600);
    await client.send(
      new PutCommand({
        TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
        Item: { [MAIL_LIMIT_TABLE_KEY.name]: 'suppressed', mailSuppressed: 'complaint' },
      }),
    );
    client.destroy();
    await store.close();

    const child = await startRunnerChild(dataDir);
    await delay(1_500);
    await child.stop();

    const reopened = await startLocalDynamoDB(dataDir);
    const reader = localDocumentClient(reopened.endpoint, { maxAttempts: 1 });
    const keys: unknown[] = [];
    for await (const page of paginateScan({ client: reader }, { TableName: LOCAL_MAIL_LIMIT_TABLE_NAME }))
      keys.push(...(page.Items ?? []).map((item) => item[MAIL_LIMIT_TABLE_KEY.name]));
    reader.destroy();
    await reopened.close();
    expect(keys.sort()).toEqual(['current', 'suppressed']);
  });
});
