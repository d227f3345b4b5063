import { existsSync } from 'node:fs';
import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { deliveryKey, emailKey } from '#contract/email-address';
import { LOCALES } from '#contract/locales';
import { visitsCounterKey } from '#contract/visit-counting';
import { LEFT_COUNTER_KEY } from '#contract/waitlist-table';
import { readItem, type WaitlistStore } from '../functions/store/store-client';
import { IN_MEMORY } from '../local/data-dir';
import { runningStoreEndpoint, startLocalDynamoDB } from '../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../local/local-store-client';
import { SIGNUP_FACT_ATTRIBUTES, type SignupFacts, type VisitsByDay } from './waitlist-stats';

/** The stack `npm run deploy` creates (infra/ names it; the tool may not import infra/). */
export const STACK_NAME = 'Mandje';

/** The stack's status and its outputs by name. */
export async function describeStack(client: CloudFormationClient, StackName = STACK_NAME) {
  const { Stacks: [stack] = [] } = await client.send(new DescribeStacksCommand({ StackName }));
  const outputs = (stack?.Outputs ?? []).map(({ OutputKey, OutputValue }) => [OutputKey, OutputValue]);
  return { status: stack?.StackStatus ?? 'unknown', outputs: Object.fromEntries(outputs) };
}

/** A problem the operator can fix, said in one sentence. */
export class WaitlistToolError extends Error {}

export type WaitlistTarget =
  | { kind: 'aws'; tableName: string; region?: string }
  | { kind: 'local'; dataDir: string };

/** `where`: where the table is, in words. */
export type WaitlistTable = WaitlistStore & { where: string; close(): Promise<void> };

/** A runner holding the local store's folder (only one process can) is gone through; otherwise it opens here. */
export async function openWaitlistTable(target: WaitlistTarget): Promise<WaitlistTable> {
  if (target.kind === 'aws') {
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: target.region }));
    await client.config.region().catch(() => {
      client.destroy();
      throw new WaitlistToolError('no AWS region found (pass --region or set AWS_REGION)');
    });
    return { client, tableName: target.tableName, where: 'AWS', close: async () => client.destroy() };
  }
  const { dataDir } = target;
  if (dataDir === IN_MEMORY || !existsSync(dataDir))
    throw new WaitlistToolError(`there is no local waitlist in ${dataDir} (set DATA_DIR or --data-dir)`);
  // A runner may open the folder a moment before this does: then it is gone through all the same.
  const store = runningStoreEndpoint(dataDir)
    ? undefined
    : await startLocalDynamoDB(dataDir).catch((error: Error) => {
        if (!runningStoreEndpoint(dataDir)) throw new WaitlistToolError(error.message);
      });
  // One attempt and a generous timeout: the operator is waiting for one answer.
  const client = localDocumentClient(store?.endpoint ?? runningStoreEndpoint(dataDir) ?? '', {
    maxAttempts: 1,
    requestHandler: { requestTimeout: 10_000 },
  });
  const close = async () => {
    client.destroy();
    await store?.close();
  };
  return { client, tableName: LOCAL_TABLE_NAME, where: dataDir, close };
}

export async function leftCount(table: WaitlistStore): Promise<number> {
  const item = await readItem(table, { email: LEFT_COUNTER_KEY });
  return typeof item?.count === 'number' ? item.count : 0;
}

/** Visitors counted on each of `days` by language; a count that is not a whole number is left out. */
export async function visitsByDay(table: WaitlistStore, days: string[]): Promise<VisitsByDay> {
  const counters = days.map(async (day) => {
    const item = (await readItem(table, { email: visitsCounterKey(day) })) ?? {};
    const counts = LOCALES.filter((language) => Number.isSafeInteger(item[language]) && item[language] >= 0);
    return [day, Object.fromEntries(counts.map((language) => [language, item[language]]))] as const;
  });
  return Object.fromEntries(await Promise.all(counters));
}

/** Every person's record: counters and announcement state have keys with no at sign and no createdAt. */
export async function allRecords({ client, tableName }: WaitlistStore, scan: object = {}) {
  const records: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName, ...scan }))
    for (const item of page.Items ?? [])
      if (String(item.email ?? '').includes('@') && item.createdAt !== undefined) records.push(item);
  return records;
}

/** What `count` and `stats` read: never an address (the key only leaves out items that are no person). */
export async function allSignupFacts(table: WaitlistStore): Promise<SignupFacts[]> {
  // Aliased, as `status`, `language` and `source` are DynamoDB reserved words.
  const attributes = ['email', ...SIGNUP_FACT_ATTRIBUTES];
  const records = await allRecords(table, {
    ProjectionExpression: attributes.map((attribute) => `#${attribute}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((attribute) => [`#${attribute}`, attribute])),
  });
  return records.map(({ email: _email, ...signup }) => signup);
}

/** Every record of the mailbox, any spelling, oldest first; scanned consistently, as its index is read eventually. */
export async function findRecords(table: WaitlistStore, address: string) {
  const mailbox = deliveryKey(emailKey(address) ?? address.trim().toLowerCase());
  const records = await allRecords(table, { ConsistentRead: true });
  return records
    .filter((record) => deliveryKey(String(record.email)) === mailbox)
    .sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
}

/** Deletes every record of the mailbox (GDPR art. 17); the keys it deleted, oldest first. */
export async function forgetRecords(table: WaitlistStore, address: string): Promise<string[]> {
  const forgotten: string[] = [];
  for (const { email } of await findRecords(table, address)) {
    const { Attributes } = await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: { email }, ReturnValues: 'ALL_OLD' }),
    );
    if (Attributes) forgotten.push(String(email));
  }
  return forgotten;
}
