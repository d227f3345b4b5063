import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { PLANNING_PHASE } from '#contract/announcement-keys';
import { requiredEnv, storeFromEnvironment } from '../store/store-client';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { logAnnouncement } from './announce-log';
import {
  type AnnouncementState,
  plannedCounters,
  type RecipientMessage,
  stateSchema,
} from './announcement-state';
import { addCounts, audiencePages, emptyCount } from './audience';

/**
 * The planner: for an announcement's pass in phase `planning` (the table's stream hands it each write of
 * the state item), it reads the next pages of the table and puts each recipient on the sender's queue,
 * then records its place and counts in the state item in one conditional write. That write is the next
 * step's start (the stream again); after the last page it sets the phase to `sending` instead. A step that
 * fails is retried by the stream from the same place; the recipients it put on the queue already are put
 * there again, which sends nobody twice (the sender claims each record before sending).
 */

const store = storeFromEnvironment();
const queueUrl = requiredEnv('QUEUE_URL');
// The region's SQS endpoint (the queue URL's own host on AWS), or AWS_ENDPOINT_URL where one is set.
const sqs = new SQSClient({ maxAttempts: 5, useQueueUrlAsEndpoint: false });

/** Pages per step: enough to keep the queue fed, few enough for a step to end in well under a minute. */
const PAGES_PER_STEP = 50;
const SQS_BATCH = 10;

async function enqueue(messages: RecipientMessage[]): Promise<void> {
  for (let start = 0; start < messages.length; start += SQS_BATCH) {
    const batch = messages.slice(start, start + SQS_BATCH);
    const { Failed = [] } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
      }),
    );
    if (Failed.length > 0)
      throw new Error(`the queue refused ${Failed.length} message(s): ${Failed[0]?.Code}`);
  }
}

/** One step: the next pages from the state's place, then the next place (or the end) recorded. */
export async function planStep(
  state: AnnouncementState,
  now = new Date(),
): Promise<'planned' | 'superseded'> {
  const { id } = state.announcement;
  const startKey = state.scanFrom ? (JSON.parse(state.scanFrom) as Record<string, unknown>) : undefined;
  const count = emptyCount();
  let nextKey: Record<string, unknown> | undefined;
  let pages = 0;
  for await (const page of audiencePages(store, id, {
    ...(startKey ? { startKey } : {}),
    resendUnknownBefore: state.resendUnknownBefore,
  })) {
    await enqueue(page.recipients.map(({ key }) => ({ id, pass: state.pass, key })));
    addCounts(count, page.count);
    nextKey = page.nextKey;
    if (++pages >= PAGES_PER_STEP) break;
  }
  const counters = plannedCounters(count);
  const names = Object.fromEntries(Object.keys(counters).map((name, index) => [`#c${index}`, name]));
  const values = Object.fromEntries(Object.values(counters).map((value, index) => [`:c${index}`, value]));
  const adds = Object.keys(counters).map((_, index) => `#c${index} :c${index}`);
  try {
    await store.client.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { email: state.email },
        UpdateExpression: nextKey
          ? `SET scanFrom = :next, updatedAt = :now ADD ${adds.join(', ')}`
          : `SET phase = :sending, updatedAt = :now REMOVE scanFrom ADD ${adds.join(', ')}`,
        ConditionExpression: `pass = :pass AND phase = :planning AND ${
          state.scanFrom ? 'scanFrom = :from' : 'attribute_not_exists(scanFrom)'
        }`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ...values,
          ':pass': state.pass,
          ':planning': PLANNING_PHASE,
          ':now': now.toISOString(),
          ...(nextKey ? { ':next': JSON.stringify(nextKey) } : { ':sending': 'sending' }),
          ...(state.scanFrom ? { ':from': state.scanFrom } : {}),
        },
      }),
    );
  } catch (error) {
    // A newer pass, or this step done already (a retried stream record): nothing to record.
    if (error instanceof ConditionalCheckFailedException) return 'superseded';
    throw error;
  }
  return 'planned';
}

export async function handler(
  event: DynamoDBStreamEvent,
  context?: Pick<Context, 'awsRequestId'>,
): Promise<DynamoDBBatchResponse> {
  for (const streamRecord of event.Records) {
    const image = streamRecord.dynamodb?.NewImage;
    const parsed = image && stateSchema.safeParse(unmarshall(image as Record<string, AttributeValue>));
    if (!parsed?.success || parsed.data.phase !== PLANNING_PHASE) continue;
    try {
      const outcome = await planStep(parsed.data as AnnouncementState);
      logAnnouncement('INFO', 'planning step', {
        outcome,
        announcement: parsed.data.announcement.id,
        pass: parsed.data.pass,
        requestId: context?.awsRequestId,
      });
    } catch (error) {
      logAnnouncement('ERROR', 'planning step', {
        outcome: 'failed',
        faultClass: faultClassOf(error),
        errorName: errorNameOf(error),
        requestId: context?.awsRequestId,
      });
      return { batchItemFailures: [{ itemIdentifier: streamRecord.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
