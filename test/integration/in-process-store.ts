import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { IN_MEMORY } from '../../local/data-dir';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import * as local from '../../local/local-store-client';

export type InProcessStore = Awaited<ReturnType<typeof startInProcessStore>>;

/**
 * dynalite in this process, in memory, with the tables as the runner makes them: the store the cores
 * (joinWaitlist, confirmSignup, sendRequestedMail) are tested against, so a test reads what a record became
 * rather than which expression was sent.
 */
export async function startInProcessStore() {
  const dynamo = await startLocalDynamoDB(IN_MEMORY);
  await ensureWaitlistTable(dynamo.endpoint);
  const client = local.localDocumentClient(dynamo.endpoint, { maxAttempts: 1 });
  const TableName = local.LOCAL_TABLE_NAME;
  return {
    /** The waitlist table, and the per-mailbox mail limit's, as a function is given them. */
    store: { client, tableName: TableName },
    limits: { client, tableName: local.LOCAL_MAIL_LIMIT_TABLE_NAME },
    /** The record under `key`, read consistently: what an operator would find. */
    async recordOf(key: string) {
      const read = new GetCommand({ TableName, Key: { email: key }, ConsistentRead: true });
      return (await client.send(read)).Item as WaitlistRecord | undefined;
    },
    /** Sets attributes of the record under `key` by hand: what another function, or time, did to it. */
    async change(key: string, attributes: Partial<WaitlistRecord>) {
      const names = Object.keys(attributes) as (keyof WaitlistRecord)[];
      await client.send(
        new UpdateCommand({
          TableName,
          Key: { email: key },
          UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :v${index}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
          ExpressionAttributeValues: Object.fromEntries(
            names.map((name, index) => [`:v${index}`, attributes[name]]),
          ),
        }),
      );
    },
    async close() {
      client.destroy();
      await dynamo.close();
    },
  };
}

let addresses = 0;
/** A fresh address for one test, typed with capitals, and its record's key (#contract/email-address). */
export function newAddress(label: string): { email: string; key: string } {
  const email = `${label[0]?.toUpperCase()}${label.slice(1)}.${Date.now()}.${++addresses}@Example.nl`;
  return { email, key: emailKey(email) as string };
}
