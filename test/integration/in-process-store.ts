import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import type { WaitlistStore } from '../../functions/store/store-client';
import { IN_MEMORY } from '../../local/data-dir';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_MAIL_LIMIT_TABLE_NAME,
  LOCAL_TABLE_NAME,
  localDocumentClient,
} from '../../local/local-store-client';

/**
 * dynalite in this process, in memory, with the waitlist table (its token index) and the mail limit's
 * table as the runner makes them: the store the cores (joinWaitlist, confirmSignup, sendRequestedMail)
 * are tested against, so a test reads what a record became rather than which expression was sent.
 */
export interface InProcessStore {
  /** The waitlist table, as a function is given it. */
  store: WaitlistStore;
  /** The per-mailbox mail limit's table. */
  limits: WaitlistStore;
  /** The record under `key`, read consistently: what an operator would find. */
  recordOf(key: string): Promise<WaitlistRecord | undefined>;
  /** Sets attributes of the record under `key` by hand: what another function, or time, did to it. */
  change(key: string, attributes: Partial<WaitlistRecord>): Promise<void>;
  close(): Promise<void>;
}

export async function startInProcessStore(): Promise<InProcessStore> {
  const dynamo = await startLocalDynamoDB(IN_MEMORY);
  await ensureWaitlistTable(dynamo.endpoint);
  const client = localDocumentClient(dynamo.endpoint, { maxAttempts: 1 });
  const store = { client, tableName: LOCAL_TABLE_NAME };
  return {
    store,
    limits: { client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME },
    async recordOf(key) {
      const { Item } = await client.send(
        new GetCommand({ TableName: LOCAL_TABLE_NAME, Key: { email: key }, ConsistentRead: true }),
      );
      return Item as WaitlistRecord | undefined;
    },
    async change(key, attributes) {
      const names = Object.keys(attributes);
      await client.send(
        new UpdateCommand({
          TableName: LOCAL_TABLE_NAME,
          Key: { email: key },
          UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :v${index}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
          ExpressionAttributeValues: Object.fromEntries(
            names.map((name, index) => [`:v${index}`, attributes[name as keyof WaitlistRecord]]),
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
