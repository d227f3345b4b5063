import { DeleteCommand, type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

/** An hour: how often the sweep runs, besides once at start. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface ExpiringTable {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The key attribute's name. */
  key: string;
  /** The attribute AWS's time to live reads: seconds since 1970. */
  expiry: string;
}

/**
 * The store here has no time to live: the items of `table` whose time has come are deleted by hand, once at
 * start and then every hour, as DynamoDB's time to live deletes them on AWS. Each delete checks the expiry
 * again, so an item given a later one since the scan stays. A failed sweep is left for the next one.
 * Returns what stops it.
 */
export function sweepExpiredItems(table: ExpiringTable): () => void {
  const { client, tableName, key, expiry } = table;
  async function sweep(): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const expired = {
      ExpressionAttributeNames: { '#expiry': expiry },
      ExpressionAttributeValues: { ':now': now },
    };
    const pages = paginateScan(
      { client },
      {
        TableName: tableName,
        ProjectionExpression: '#key',
        FilterExpression: '#expiry <= :now',
        ...expired,
        ExpressionAttributeNames: { ...expired.ExpressionAttributeNames, '#key': key },
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? [])
        await client
          .send(
            new DeleteCommand({
              TableName: tableName,
              Key: { [key]: item[key] },
              ConditionExpression: '#expiry <= :now',
              ...expired,
            }),
          )
          .catch(() => {});
  }
  const sweepQuietly = () => sweep().catch(() => {});
  void sweepQuietly();
  const timer = setInterval(sweepQuietly, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
