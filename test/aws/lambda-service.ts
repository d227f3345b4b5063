import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  ACCOUNT,
  type DeployedFunction,
  type DeployedStack,
  type EventSourceMapping,
} from './deployed-stack';

/**
 * Lambda as far as the production path needs it, reading everything from the synthesized template:
 * - each function runs its bundle from cdk.out in worker threads (one per concurrent invocation, kept warm
 *   between invocations, as Lambda keeps an instance), with the template's environment and timeout;
 * - each SQS event source mapping polls its queue with the mapping's batch size, batching window and
 *   maximum concurrency, deletes what succeeded, and leaves the batch item failures (or a whole failed
 *   or timed-out batch) to SQS's visibility timeout;
 * - each stream mapping reads DynamoDB Streams from its starting position, applies the mapping's filter
 *   patterns, and retries a batch from its first reported failure, in order, per shard, until the record
 *   is older than the mapping's maximum age or its retries are spent; then it hands Lambda's pointer to
 *   the record to the mapping's on-failure destination, or drops it when there is none.
 * Not modelled: bisecting a failed stream batch, shard splits' parent-first order, and Lambda's scaling
 * beyond the mapping's own maximum.
 */

export interface LogLine {
  functionId: string;
  line: string;
}

type Invocation = { id: number; event: unknown; deadline: number };
type Answer = { id: number; result?: unknown; error?: { name: string; message: string } };

class Instance {
  private worker: Worker;
  private ready: Promise<void>;
  private pending = new Map<number, { done(answer: Answer): void }>();
  private next = 0;

  constructor(fn: DeployedFunction, environment: Record<string, string>, logs: LogLine[]) {
    this.worker = new Worker(new URL('./lambda-worker.ts', import.meta.url), {
      workerData: { bundle: `${fn.dir}/index.mjs`, functionName: fn.id },
      env: environment,
      stdout: true,
      stderr: true,
    });
    for (const stream of [this.worker.stdout, this.worker.stderr])
      stream.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line) logs.push({ functionId: fn.id, line });
      });
    this.ready = new Promise((done, fail) => {
      this.worker.once('message', () => done());
      this.worker.once('error', fail);
    });
    this.worker.on('message', (answer: Answer) => this.pending.get(answer.id)?.done(answer));
    this.worker.on('exit', () => {
      for (const { done } of this.pending.values())
        done({ id: -1, error: { name: 'Killed', message: 'instance ended' } });
      this.pending.clear();
    });
  }

  async invoke(event: unknown, timeoutMs: number): Promise<Answer> {
    await this.ready;
    const id = this.next++;
    const answer = new Promise<Answer>((done) => this.pending.set(id, { done }));
    const invocation: Invocation = { id, event, deadline: Date.now() + timeoutMs };
    this.worker.postMessage(invocation);
    const timer = setTimeout(() => void this.kill(), timeoutMs);
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
      this.pending.delete(id);
    }
  }

  kill(): Promise<number> {
    return this.worker.terminate();
  }
}

/** One function's instances: an idle one is reused, else a new one starts (a cold start). */
export class LambdaFunction {
  private idle: Instance[] = [];
  private busy = new Set<Instance>();
  invocations = 0;

  constructor(
    readonly fn: DeployedFunction,
    private environment: Record<string, string>,
    private logs: LogLine[],
  ) {}

  async invoke(event: unknown): Promise<{ result?: unknown; error?: { name: string; message: string } }> {
    const instance = this.idle.pop() ?? new Instance(this.fn, this.environment, this.logs);
    this.busy.add(instance);
    this.invocations++;
    const answer = await instance.invoke(event, this.fn.timeoutSeconds * 1_000);
    this.busy.delete(instance);
    // An instance that failed its invocation (timed out, killed) is gone; others stay warm.
    if (answer.error?.name !== 'Killed') this.idle.push(instance);
    return answer;
  }

  /** Ends every instance in the middle of what it is doing, as a crash or a timeout would. */
  async killBusy(): Promise<void> {
    await Promise.all([...this.busy].map((instance) => instance.kill()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.idle, ...this.busy].map((instance) => instance.kill()));
    this.idle = [];
  }
}

/**
 * Lambda's event filter patterns and EventBridge's event patterns: equality, exists and prefix, which is
 * all the stack uses. A list in the event matches when any of its values does.
 */
export function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (typeof pattern !== 'object' || pattern === null) return false;
  return Object.entries(pattern).every(([key, rule]) => {
    const inner = (value as Record<string, unknown> | undefined)?.[key];
    if (!Array.isArray(rule)) return matchesPattern(rule, inner);
    return rule.some((option: unknown) => {
      if (Array.isArray(inner))
        return inner.some((one) => matchesPattern({ [key]: [option] }, { [key]: one }));
      if (typeof option !== 'object' || option === null) return inner === option;
      if ('exists' in option) return (inner !== undefined) === option.exists;
      if ('prefix' in option) return typeof inner === 'string' && inner.startsWith(String(option.prefix));
      throw new Error(`a filter rule this runner does not model: ${JSON.stringify(option)}`);
    });
  });
}

interface Sources {
  stack: DeployedStack;
  sqs: SQSClient;
  /** Calls DynamoDB Streams' JSON API as the harness. */
  streams(action: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The stream's ARN as DynamoDB Local names it, by the table's logical id. */
  streamArn(tableId: string): string;
  functions: Map<string, LambdaFunction>;
}

/** Runs every event source mapping of the stack until stopped. */
export function runEventSources({ stack, sqs, streams, streamArn, functions }: Sources) {
  let stopped = false;
  /** Messages received and neither deleted nor received again since: what waits out a visibility timeout. */
  const invisible = new Map<string, { queueUrl: string; receiptHandle: string }>();
  const loops: Promise<void>[] = [];
  const errors: unknown[] = [];
  /** Stream records made before this moment count as past their mapping's maximum age (endRecordAges). */
  let agedBefore = 0;
  const functionOf = (mapping: EventSourceMapping) => {
    const fn = functions.get(mapping.functionId);
    if (!fn) throw new Error(`mapping ${mapping.id} names a function the stack does not have`);
    return fn;
  };

  async function pollQueue(mapping: EventSourceMapping): Promise<void> {
    const queue = stack.queues.get(mapping.sourceId);
    if (!queue) throw new Error(`mapping ${mapping.id} reads a queue the stack does not have`);
    const fn = functionOf(mapping);
    while (!stopped) {
      const windowEnds = Date.now() + mapping.batchingWindowSeconds * 1_000;
      const messages: Message[] = [];
      do {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queue.url,
            MaxNumberOfMessages: Math.min(10, mapping.batchSize - messages.length),
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        messages.push(...Messages);
      } while (
        !stopped &&
        messages.length < mapping.batchSize &&
        messages.length > 0 &&
        Date.now() < windowEnds
      );
      if (messages.length === 0) continue;
      for (const message of messages)
        invisible.set(String(message.MessageId), {
          queueUrl: queue.url,
          receiptHandle: String(message.ReceiptHandle),
        });
      const event = {
        Records: messages.map((message) => ({
          messageId: message.MessageId,
          receiptHandle: message.ReceiptHandle,
          body: message.Body,
          attributes: message.Attributes ?? {},
          messageAttributes: Object.fromEntries(
            Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
              name,
              {
                stringValue: value.StringValue,
                dataType: value.DataType,
                stringListValues: [],
                binaryListValues: [],
              },
            ]),
          ),
          md5OfBody: message.MD5OfBody,
          eventSource: 'aws:sqs',
          eventSourceARN: queue.arn,
          awsRegion: stack.region,
        })),
      };
      const answer = await fn.invoke(event);
      if (answer.error) continue;
      const failed = new Set(
        mapping.reportsItemFailures
          ? (
              (answer.result as { batchItemFailures?: { itemIdentifier: string }[] })?.batchItemFailures ?? []
            ).map((failure) => failure.itemIdentifier)
          : [],
      );
      const done = messages.filter((message) => !failed.has(String(message.MessageId)));
      for (let start = 0; start < done.length; start += 10) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queue.url,
            Entries: done.slice(start, start + 10).map((message, index) => ({
              Id: String(index),
              ReceiptHandle: String(message.ReceiptHandle),
            })),
          }),
        );
      }
      for (const message of done) invisible.delete(String(message.MessageId));
    }
  }

  type StreamRecord = { dynamodb: { SequenceNumber: string; ApproximateCreationDateTime: number } };
  /** What Lambda sends a stream mapping's on-failure destination: where the record is, never the record. */
  async function giveUp(
    mapping: EventSourceMapping,
    record: StreamRecord,
    shardId: string,
    condition: string,
  ) {
    const queue = mapping.onFailureQueueId && stack.queues.get(mapping.onFailureQueueId);
    if (!queue) return;
    const { SequenceNumber, ApproximateCreationDateTime } = record.dynamodb;
    const arrival = new Date(ApproximateCreationDateTime * 1_000).toISOString();
    const pointer = {
      requestContext: {
        requestId: randomUUID(),
        functionArn: `arn:aws:lambda:${stack.region}:${ACCOUNT}:function:${mapping.functionId}`,
        condition,
        approximateInvokeCount: 1,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: SequenceNumber,
        endSequenceNumber: SequenceNumber,
        approximateArrivalOfFirstRecord: arrival,
        approximateArrivalOfLastRecord: arrival,
        batchSize: 1,
        streamArn: streamArn(mapping.sourceId),
      },
    };
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: JSON.stringify(pointer) }));
  }

  /** One shard at a time, every record in order; `from` TRIM_HORIZON replays the stream's whole day. */
  async function pollStream(mapping: EventSourceMapping, from = mapping.startingPosition ?? 'LATEST') {
    const fn = functionOf(mapping);
    const arn = streamArn(mapping.sourceId);
    const iterators = new Map<string, string | undefined>();
    let retries = 0;
    let pending: Record<string, unknown>[] = [];
    while (!stopped) {
      const description = (await streams('DescribeStream', { StreamArn: arn })) as {
        StreamDescription: { Shards: { ShardId: string }[] };
      };
      for (const { ShardId } of description.StreamDescription.Shards)
        if (!iterators.has(ShardId)) {
          const { ShardIterator } = await streams('GetShardIterator', {
            StreamArn: arn,
            ShardId,
            ShardIteratorType: from,
          });
          iterators.set(ShardId, ShardIterator as string);
        }
      for (const [shard, iterator] of iterators) {
        if (!iterator) continue;
        const { Records = [], NextShardIterator } = (await streams('GetRecords', {
          ShardIterator: iterator,
        })) as {
          Records?: Record<string, unknown>[];
          NextShardIterator?: string;
        };
        iterators.set(shard, NextShardIterator);
        const records = (Records as { dynamodb: Record<string, unknown> }[]).map((record) => ({
          ...record,
          shardId: shard,
          eventSource: 'aws:dynamodb',
          eventSourceARN: arn,
          awsRegion: stack.region,
          dynamodb: {
            ...record.dynamodb,
            ApproximateCreationDateTime: Number(record.dynamodb.ApproximateCreationDateTime),
          },
        }));
        pending.push(
          ...records.filter(
            (record) =>
              mapping.filters.length === 0 || mapping.filters.some((f) => matchesPattern(f, record)),
          ),
        );
      }
      while (!stopped && pending.length > 0) {
        const batch = pending.slice(0, mapping.batchSize);
        const answer = await fn.invoke({ Records: batch });
        const failure = answer.error
          ? 0
          : batch.findIndex((record) =>
              (
                (answer.result as { batchItemFailures?: { itemIdentifier: string }[] })?.batchItemFailures ??
                []
              ).some(
                (item) =>
                  item.itemIdentifier === (record.dynamodb as { SequenceNumber: string }).SequenceNumber,
              ),
            );
        if (failure === -1) {
          pending = pending.slice(batch.length);
          retries = 0;
        } else {
          pending = pending.slice(failure);
          const first = pending[0] as unknown as StreamRecord & { shardId: string };
          const createdAt = first.dynamodb.ApproximateCreationDateTime * 1_000;
          const tooOld =
            createdAt < agedBefore ||
            Date.now() - createdAt > (mapping.maxRecordAgeSeconds ?? Number.POSITIVE_INFINITY) * 1_000;
          const spent = ++retries > (mapping.maxRetries ?? Number.POSITIVE_INFINITY);
          if (tooOld || spent) {
            await giveUp(
              mapping,
              first,
              first.shardId,
              tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
            );
            pending = pending.slice(1);
            retries = 0;
          }
          await delay(500);
        }
      }
      await delay(250);
    }
  }

  const start = (run: () => Promise<void>) =>
    loops.push(
      run().catch((error: unknown) => {
        if (!stopped) errors.push(error);
      }),
    );
  for (const mapping of stack.mappings) {
    if (mapping.kind === 'sqs')
      for (let lane = 0; lane < mapping.maxConcurrency; lane++) start(() => pollQueue(mapping));
    else
      for (let lane = 0; lane < mapping.parallelizationFactor; lane++)
        if (lane === 0) start(() => pollStream(mapping));
  }

  return {
    errors,
    /**
     * The visibility timeouts end now rather than later: every message received and not deleted becomes
     * visible again, as it would once its timeout (the mailer's backoff, or the queue's own) ran out.
     */
    async endVisibilityTimeouts(): Promise<number> {
      const entries = [...invisible.entries()];
      invisible.clear();
      for (const [, { queueUrl, receiptHandle }] of entries)
        await sqs
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: queueUrl,
              ReceiptHandle: receiptHandle,
              VisibilityTimeout: 0,
            }),
          )
          .catch(() => {});
      return entries.length;
    },
    /** Every stream record made until now is past its mapping's maximum age, as a day later it would be. */
    endRecordAges(): void {
      agedBefore = Date.now() + 1_000;
    },
    /** Reads the mapping's stream again from its oldest record, as a new mapping from TRIM_HORIZON would. */
    replay(mapping: EventSourceMapping): void {
      start(() => pollStream(mapping, 'TRIM_HORIZON'));
    },
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
