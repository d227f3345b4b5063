import { existsSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

/** The stack `npm run deploy` creates (infra/ names it; the tool may not import infra/). */
export const STACK_NAME = 'Mandje';

/** A problem the operator can fix, said in one sentence. */
export class WaitlistToolError extends Error {
  override name = 'WaitlistToolError';
}

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

/**
 * Opens the waitlist table. The local store is reached through the running store's endpoint when a runner
 * has the folder open (only one process can); otherwise the folder is opened here, and closed by `close`.
 */
export async function openWaitlistTable(target: WaitlistTarget): Promise<WaitlistTable> {
  if (target.kind === 'aws') {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient(target.region ? { region: target.region } : {}),
    );
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
  if (dataDir === IN_MEMORY)
    throw new WaitlistToolError('DATA_DIR is :memory:, which keeps no waitlist to work on');
  if (!existsSync(dataDir))
    throw new WaitlistToolError(`there is no local waitlist in ${dataDir} (set DATA_DIR or --data-dir)`);
  // One attempt and a generous timeout: the operator is waiting for one answer.
  const local = (endpoint: string, closeStore = async () => {}): WaitlistTable => {
    const client = localDocumentClient(endpoint, {
      maxAttempts: 1,
      requestHandler: { requestTimeout: 10_000 },
    });
    const close = async () => {
      client.destroy();
      await closeStore();
    };
    return { client, tableName: LOCAL_TABLE_NAME, where: `the local store in ${dataDir}`, close };
  };
  const running = runningStoreEndpoint(dataDir);
  if (running) return local(running);
  let store: Awaited<ReturnType<typeof startLocalDynamoDB>>;
  try {
    store = await startLocalDynamoDB(dataDir);
  } catch (error) {
    // A runner may have opened the folder a moment ago: go through it.
    const started = runningStoreEndpoint(dataDir);
    if (!started) throw new WaitlistToolError((error as Error).message);
    return local(started);
  }
  return local(store.endpoint, () => store.close());
}

/** Counters and announcement state have keys with no at sign and no createdAt: scans of people skip them. */
export const isPersonRecord = (item: Record<string, unknown>) =>
  String(item.email ?? '').includes('@') && item.createdAt !== undefined;

/** How many people left the waitlist by their leave link. */
export async function leftCount(table: WaitlistTable): Promise<number> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: { email: LEFT_COUNTER_KEY }, ConsistentRead: true }),
  );
  return typeof Item?.count === 'number' ? Item.count : 0;
}

/** Visitors counted on each of `days` by language; a count that is not a whole number is left out. */
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

type Scan = {
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ConsistentRead?: boolean;
};

/** Every person's record in the table, page by page. */
async function scanPeople(table: WaitlistTable, scan: Scan = {}): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: table.client }, { TableName: table.tableName, ...scan }))
    records.push(...(page.Items ?? []).filter(isPersonRecord));
  return records;
}

export async function countByStatus(table: WaitlistTable): Promise<Record<string, number>> {
  const counts: Record<string, number> = { confirmed: 0, pending: 0 };
  const scan = {
    ProjectionExpression: 'email, createdAt, #status, mailSuppressed',
    ExpressionAttributeNames: { '#status': 'status' },
  };
  for (const item of await scanPeople(table, scan)) {
    const status = statusOf(item);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/** What `stats` reads: never an address (the key is read only to leave out items that are no person). */
export async function allSignupFacts(table: WaitlistTable): Promise<SignupFacts[]> {
  // Aliased, as `status`, `language` and `source` are DynamoDB reserved words.
  const attributes = ['email', ...SIGNUP_FACT_ATTRIBUTES];
  const records = await scanPeople(table, {
    ProjectionExpression: attributes.map((attribute) => `#${attribute}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((attribute) => [`#${attribute}`, attribute])),
  });
  return records.map(({ email: _email, ...signup }) => signup);
}

export const allRecords = (table: WaitlistTable) => scanPeople(table);

/** A record as plain JSON values, its attributes in order (sets as sorted lists). */
const plainRecord = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [name, value instanceof Set ? [...value].sort() : value]),
  );

/**
 * Each spelling of a mailbox (plus tags, Gmail's dots, googlemail.com) is a record of its own. A consistent
 * scan, as the mailbox index is read eventually and might miss a record just made.
 */
async function recordsOfMailbox(table: WaitlistTable, address: string, scan: Scan = {}) {
  const mailbox = deliveryKey(emailKey(address) ?? address.trim().toLowerCase());
  const records = await scanPeople(table, { ConsistentRead: true, ...scan });
  return records
    .filter((record) => deliveryKey(String(record.email)) === mailbox)
    .sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
}

/** Everything stored about the person (GDPR art. 15 and 20). */
export async function findRecords(table: WaitlistTable, address: string): Promise<Record<string, unknown>[]> {
  return (await recordsOfMailbox(table, address)).map(plainRecord);
}

/** Deletes every record of the mailbox (GDPR art. 17); the keys it deleted, oldest first. */
export async function forgetRecords(table: WaitlistTable, address: string): Promise<string[]> {
  const records = await recordsOfMailbox(table, address, { ProjectionExpression: 'email, createdAt' });
  const forgotten: string[] = [];
  for (const { email } of records) {
    const deleted = await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: { email }, ReturnValues: 'ALL_OLD' }),
    );
    if (deleted.Attributes) forgotten.push(String(email));
  }
  return forgotten;
}
