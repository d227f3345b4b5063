import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { localDocumentClient, storeAddressFromEnvironment } from '../../local/local-store-client';

/**
 * Every record's key (`email`) in the waitlist table at `endpoint`, duplicates included, read with a full
 * scan: what an operator would find. Defaults to the store the runner in this process points the SDK at.
 */
export async function storedEmails(
  endpoint = storeAddressFromEnvironment(),
  tableName = process.env.TABLE_NAME,
): Promise<string[]> {
  const client = localDocumentClient(endpoint as string, { maxAttempts: 1 });
  const emails: string[] = [];
  try {
    for await (const page of paginateScan({ client }, { TableName: tableName }))
      for (const item of page.Items ?? []) emails.push(String(item.email ?? ''));
  } finally {
    client.destroy();
  }
  return emails;
}

/** How many records each address has: every value should be 1. */
export function recordsPerAddress(emails: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const email of emails.map((stored) => stored.toLowerCase()))
    counts.set(email, (counts.get(email) ?? 0) + 1);
  return counts;
}
