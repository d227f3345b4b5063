import { DeleteCommand, type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

/**
 * dynalite has no time to live: the expired items are deleted by hand, at start and then hourly. Each
 * delete checks the expiry again, so an item given a later one since the scan stays. A failed sweep is
 * left for the next one. `expiry` is the attribute AWS's time to live reads (seconds since 1970).
 */
export function sweepExpiredItems({
  client,
  tableName,
  key,
  expiry,
}: {
  client: DynamoDBDocumentClient;
  tableName: string;
  key: string;
  expiry: string;
}): () => void {
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
  const timer = setInterval(sweepQuietly, 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
