import { existsSync } from 'node:fs';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { deliveryKey, emailKey } from '#contract/email-address';
import { LOCALES } from '#contract/locales';
import { visitsCounterKey } from '#contract/visit-counting';
import { LEFT_COUNTER_KEY } from '#contract/waitlist-table';
import { IN_MEMORY } from '../local/data-dir';
import { runningStoreEndpoint, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../local/local-store-client';
import { statusOf } from './waitlist-csv';
import { SIGNUP_FACT_ATTRIBUTES, type SignupFacts, type VisitsByDay } from './waitlist-stats';
import { WaitlistToolError } from './waitlist-tool-error';

/** Which waitlist the operator works on: the AWS table, or the local store in a data folder. */
export type WaitlistTarget =
  | { kind: 'aws'; tableName: string; region?: string }
  | { kind: 'local'; dataDir: string };

export interface WaitlistTable {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Where the table is, in words, for error messages. */
  where: string;
  close(): Promise<void>;
}

const documentClient = (config: DynamoDBClientConfig) =>
  DynamoDBDocumentClient.from(new DynamoDBClient(config));

/** The local store, with one attempt and a generous timeout: the operator is waiting for one answer. */
const localClient = (endpoint: string) =>
  localDocumentClient(endpoint, { maxAttempts: 1, requestHandler: { requestTimeout: 10_000 } });

/**
 * Opens the waitlist table. The local store is reached through the running store's endpoint when a runner
 * has the folder open (only one process can); otherwise the folder is opened here, and closed by `close`.
 */
export async function openWaitlistTable(target: WaitlistTarget): Promise<WaitlistTable> {
  if (target.kind === 'aws') {
    const client = documentClient(target.region ? { region: target.region } : {});
    try {
      await client.config.region();
    } catch {
      client.destroy();
      throw new WaitlistToolError('no AWS region found (pass --region or set AWS_REGION)');
    }
    const where = `region ${target.region ?? process.env.AWS_REGION ?? '(default)'}`;
    return { client, tableName: target.tableName, where, close: async () => client.destroy() };
  }

  const { dataDir } = target;
  if (dataDir === IN_MEMORY) {
    throw new WaitlistToolError('DATA_DIR is :memory:, which keeps no waitlist to work on');
  }
  if (!existsSync(dataDir)) {
    throw new WaitlistToolError(`there is no local waitlist in ${dataDir} (set DATA_DIR or --data-dir)`);
  }
  const where = `the local store in ${dataDir}`;
  const running = runningStoreEndpoint(dataDir);
  if (running) {
    const client = localClient(running);
    return { client, tableName: LOCAL_TABLE_NAME, where, close: async () => client.destroy() };
  }
  let store: Awaited<ReturnType<typeof startLocalDynamoDB>>;
  try {
    store = await startLocalDynamoDB(dataDir);
  } catch (error) {
    // A runner may have opened the folder a moment ago: go through it.
    const started = runningStoreEndpoint(dataDir);
    if (!started) throw new WaitlistToolError((error as Error).message);
    const client = localClient(started);
    return { client, tableName: LOCAL_TABLE_NAME, where, close: async () => client.destroy() };
  }
  const client = localClient(store.endpoint);
  return {
    client,
    tableName: LOCAL_TABLE_NAME,
    where,
    close: async () => {
      client.destroy();
      await store.close();
    },
  };
}

/**
 * Whether an item is a person's record. The table also keeps counters and announcement state, under keys
 * with no at sign (no address can be one) and without createdAt: every scan of people leaves them out.
 */
export const isPersonRecord = (item: Record<string, unknown>) =>
  String(item.email ?? '').includes('@') && item.createdAt !== undefined;

/** How many people left the waitlist by their leave link: the counter LEFT_COUNTER_KEY, 0 when none has. */
export async function leftCount(table: WaitlistTable): Promise<number> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: { email: LEFT_COUNTER_KEY }, ConsistentRead: true }),
  );
  return typeof Item?.count === 'number' ? Item.count : 0;
}

/**
 * The visitors the API function counted on each of `days` (YYYY-MM-DD), by language: the counters
 * under visitsCounterKey, one read each. A day without one counted none; a count that is not a whole
 * number, or a language LOCALES does not have, is left out rather than guessed at.
 */
export async function visitsByDay(table: WaitlistTable, days: string[]): Promise<VisitsByDay> {
  const counters = await Promise.all(
    days.map(async (day) => {
      const { Item } = await table.client.send(
        new GetCommand({ TableName: table.tableName, Key: { email: visitsCounterKey(day) } }),
      );
      const counts = LOCALES.flatMap((language) => {
        const count = Item?.[language];
        return Number.isSafeInteger(count) && count >= 0 ? [[language, count] as const] : [];
      });
      return [day, Object.fromEntries(counts)] as const;
    }),
  );
  return Object.fromEntries(counters.filter(([, counts]) => Object.keys(counts).length > 0));
}

/** How many records the table holds, by status (statusOf), read page by page with the SDK's paginator. */
export async function countByStatus(table: WaitlistTable): Promise<Record<string, number>> {
  const counts: Record<string, number> = { confirmed: 0, pending: 0 };
  for await (const page of paginateScan(
    { client: table.client },
    {
      TableName: table.tableName,
      ProjectionExpression: 'email, createdAt, #status, mailSuppressed',
      ExpressionAttributeNames: { '#status': 'status' },
    },
  )) {
    for (const item of (page.Items ?? []).filter(isPersonRecord)) {
      const status = statusOf(item);
      counts[status] = (counts[status] ?? 0) + 1;
    }
  }
  return counts;
}

/**
 * When each record was made and confirmed, in which language, its status and its coarse source: nothing
 * else, and no address (`stats`). Read page by page with the SDK's paginator.
 */
export async function allSignupFacts(table: WaitlistTable): Promise<SignupFacts[]> {
  const facts: SignupFacts[] = [];
  for await (const page of paginateScan(
    { client: table.client },
    {
      TableName: table.tableName,
      // Aliased, as `status`, `language` and `source` are DynamoDB reserved words.
      ProjectionExpression: ['email', ...SIGNUP_FACT_ATTRIBUTES]
        .map((attribute) => `#${attribute}`)
        .join(', '),
      ExpressionAttributeNames: Object.fromEntries(
        ['email', ...SIGNUP_FACT_ATTRIBUTES].map((attribute) => [`#${attribute}`, attribute]),
      ),
    },
  )) {
    // The key is read only to leave out items that are no person; stats never shows it.
    for (const { email: _email, ...signup } of (page.Items ?? []).filter(isPersonRecord)) facts.push(signup);
  }
  return facts;
}

/** Every record in the table, read page by page with the SDK's paginator. */
export async function allRecords(table: WaitlistTable): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: table.client }, { TableName: table.tableName })) {
    records.push(...(page.Items ?? []).filter(isPersonRecord));
  }
  return records;
}

/** The mailbox an address delivers to, however it is typed (#contract/email-address `deliveryKey`). */
const mailboxOfAddress = (address: string) => deliveryKey(emailKey(address) ?? address.trim().toLowerCase());

/** The mailbox a record delivers to: its key's. */
const mailboxOfRecord = (record: Record<string, unknown>) => deliveryKey(String(record.email));

/** A record as plain JSON values, its attributes in order (sets as sorted lists). */
const plainRecord = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [name, value instanceof Set ? [...value].sort() : value]),
  );

/**
 * Every record of the mailbox `address` delivers to, oldest first: each spelling of it (a plus tag, Gmail's
 * dots, googlemail.com) is a record of its own, and a request from the mailbox's owner covers them all. One
 * consistent pass over the table: the mailbox index is read eventually, and might miss a record just made.
 */
async function recordsOfMailbox(
  table: WaitlistTable,
  address: string,
  scan: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> } = {},
): Promise<Record<string, unknown>[]> {
  const mailbox = mailboxOfAddress(address);
  const records: Record<string, unknown>[] = [];
  for await (const page of paginateScan(
    { client: table.client },
    { TableName: table.tableName, ConsistentRead: true, ...scan },
  )) {
    for (const item of page.Items ?? [])
      if (isPersonRecord(item) && mailboxOfRecord(item) === mailbox) records.push(item);
  }
  return records.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
}

/**
 * Everything stored about the person whose mailbox `address` is, however it is typed (GDPR art. 15 and
 * 20): every record of that mailbox, oldest first, as plain JSON values; none when there is no record.
 */
export async function findRecords(table: WaitlistTable, address: string): Promise<Record<string, unknown>[]> {
  return (await recordsOfMailbox(table, address)).map(plainRecord);
}

/**
 * Deletes every record of the mailbox `address` delivers to, however it is typed (GDPR art. 17); the keys
 * of those it deleted, oldest first.
 */
export async function forgetRecords(table: WaitlistTable, address: string): Promise<string[]> {
  const records = await recordsOfMailbox(table, address, {
    ProjectionExpression: 'email, createdAt',
  });
  const forgotten: string[] = [];
  for (const { email } of records) {
    const deleted = await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: { email }, ReturnValues: 'ALL_OLD' }),
    );
    if (deleted.Attributes) forgotten.push(String(email));
  }
  return forgotten;
}
