/**
 * A data folder whose waitlist table was made before an index the stack now has (the mailbox index) gets
 * it when a runner opens the folder: dynalite cannot add an index to a table, so the table is rebuilt
 * through a copy, keeping every item, and a rebuild stopped half-way is finished at the next start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAILBOX_INDEX, TOKEN_INDEX, WAITLIST_TABLE_KEY } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localStoreClient } from '../../local/local-store-client';

/** The records of a folder made before the mailbox index: one with the attribute, one without. */
const RECORDS = [
  {
    email: 'ann.de.vries+news@gmail.com',
    mailbox: mailboxHashOf('ann.de.vries+news@gmail.com'),
    tokenHash: 'a'.repeat(64),
    createdAt: '2026-11-01T10:00:00.000Z',
    announcements: new Set(['launch']),
  },
  { email: 'kim@example.nl', createdAt: '2026-11-02T10:00:00.000Z' },
  { email: '#left', count: 3 },
];

/** A new table is CREATING for a moment; dynalite answers a put then as if there were none. */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  while (
    (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.TableStatus !== 'ACTIVE'
  )
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The table as a data folder from before the mailbox index holds it: the token index only. */
async function tableWithTokenIndexOnly(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: 'S' },
        { AttributeName: TOKEN_INDEX.key.name, AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: TOKEN_INDEX.name,
          KeySchema: [{ AttributeName: TOKEN_INDEX.key.name, KeyType: 'HASH' }],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...TOKEN_INDEX.projection] },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await untilActive(client, tableName);
  const documents = DynamoDBDocumentClient.from(client);
  for (const Item of RECORDS) await documents.send(new PutCommand({ TableName: tableName, Item }));
}

/** Opens the folder's store for `work`, and closes it again, as one runner's start would. */
async function withStore(dataDir: string, work: (client: DynamoDBClient, endpoint: string) => Promise<void>) {
  const store = await startLocalDynamoDB(dataDir);
  const client = localStoreClient(store.endpoint);
  try {
    await work(client, store.endpoint);
  } finally {
    client.destroy();
    await store.close();
  }
}

async function expectTheStackTable(client: DynamoDBClient): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: LOCAL_TABLE_NAME }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
    [MAILBOX_INDEX.name, TOKEN_INDEX.name].sort(),
  );
  const documents = DynamoDBDocumentClient.from(client);
  const { Items = [] } = await documents.send(new ScanCommand({ TableName: LOCAL_TABLE_NAME }));
  expect(Items.sort((a, b) => String(a.email).localeCompare(String(b.email)))).toEqual(
    [...RECORDS].sort((a, b) => a.email.localeCompare(b.email)),
  );
  const { Items: ofMailbox = [] } = await documents.send(
    new QueryCommand({
      TableName: LOCAL_TABLE_NAME,
      IndexName: MAILBOX_INDEX.name,
      KeyConditionExpression: '#mailbox = :mailbox',
      ExpressionAttributeNames: { '#mailbox': MAILBOX_INDEX.key.name },
      ExpressionAttributeValues: { ':mailbox': mailboxHashOf('anndevries@googlemail.com') },
    }),
  );
  expect(ofMailbox.map((item) => item.email)).toEqual(['ann.de.vries+news@gmail.com']);
  const { TableNames } = await client.send(new ListTablesCommand({}));
  expect(TableNames?.filter((name) => name.startsWith(LOCAL_TABLE_NAME))).toEqual([LOCAL_TABLE_NAME]);
}

describe('a data folder from before the mailbox index', () => {
  it('gets the table the stack has, every item kept, when a runner opens it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    await withStore(dataDir, (client) => tableWithTokenIndexOnly(client, LOCAL_TABLE_NAME));

    await withStore(dataDir, (_client, endpoint) => ensureWaitlistTable(endpoint));

    // Read back at the next start: what was rebuilt is on disk.
    await withStore(dataDir, (client) => expectTheStackTable(client));
  });

  it('finishes a rebuild stopped after its copy was whole and the table deleted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const copy = `${LOCAL_TABLE_NAME}-rebuild`;
    await withStore(dataDir, async (client) => {
      // What a runner killed half-way leaves: the whole copy, marked so, and no table.
      await tableWithTokenIndexOnly(client, copy);
      await DynamoDBDocumentClient.from(client).send(
        new PutCommand({ TableName: copy, Item: { email: '#whole-copy' } }),
      );
    });

    await withStore(dataDir, async (client, endpoint) => {
      await ensureWaitlistTable(endpoint);
      await expectTheStackTable(client);
    });
  });

  it('starts over from the table when the copy was not whole yet', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    await withStore(dataDir, async (client) => {
      await tableWithTokenIndexOnly(client, LOCAL_TABLE_NAME);
      // A copy stopped after one item, not marked whole.
      await client.send(
        new CreateTableCommand({
          TableName: `${LOCAL_TABLE_NAME}-rebuild`,
          KeySchema: [{ AttributeName: WAITLIST_TABLE_KEY.name, KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: WAITLIST_TABLE_KEY.name, AttributeType: 'S' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      await untilActive(client, `${LOCAL_TABLE_NAME}-rebuild`);
      await DynamoDBDocumentClient.from(client).send(
        new PutCommand({ TableName: `${LOCAL_TABLE_NAME}-rebuild`, Item: RECORDS[1] }),
      );
    });

    await withStore(dataDir, async (client, endpoint) => {
      await ensureWaitlistTable(endpoint);
      await expectTheStackTable(client);
    });
  });
});
