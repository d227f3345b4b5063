import { once } from 'node:events';
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
import { ACCOUNT, type DeployedStack, type EventSourceMapping } from './deployed-stack';

/**
 * Lambda as far as the production path needs it, read from the synthesized template: each function's bundle
 * runs in worker threads (one per concurrent invocation, kept warm as Lambda keeps an instance) with the
 * template's environment and timeout. Each SQS mapping polls with its batch size, window and maximum
 * concurrency, deletes what succeeded and leaves failures to the visibility timeout; each stream mapping
 * applies its filters and retries a batch from its first failure, in order, until the record is older than
 * the mapping's maximum age or its retries are spent, then hands a pointer to its on-failure destination.
 * Not modelled: bisecting a failed batch, shard splits' order, scaling beyond the mapping's maximum.
 */

export type LogLine = { functionId: string; line: string };
type Answer = { id: number; result?: unknown; error?: { name: string; message: string } };
type DeployedFunction = DeployedStack['functions'] extends Map<string, infer Fn> ? Fn : never;

/** One instance: a worker thread that imports the bundle once and runs one invocation at a time. */
function startInstance(fn: DeployedFunction, env: Record<string, string>, logs: LogLine[]) {
  const workerData = { bundle: `${fn.dir}/index.mjs`, functionName: fn.id };
  const worker = new Worker(new URL('./lambda-worker.ts', import.meta.url), {
    workerData,
    env,
    stdout: true,
    stderr: true,
  });
  for (const stream of [worker.stdout, worker.stderr])
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push({ functionId: fn.id, line });
    });
  const ready = once(worker, 'message');
  // An error ends the worker: its invocations answer as killed, on its exit.
  worker.on('error', () => {});
  const pending = new Map<number, (answer: Answer) => void>();
  worker.on('message', (answer: Answer) => pending.get(answer.id)?.(answer));
  worker.on('exit', () => {
    for (const done of pending.values())
      done({ id: -1, error: { name: 'Killed', message: 'instance ended' } });
  });
  let next = 0;
  return {
    kill: () => worker.terminate(),
    async invoke(event: unknown): Promise<Answer> {
      await ready;
      const id = next++;
      const answer = new Promise<Answer>((done) => pending.set(id, done));
      const timeoutMs = fn.timeoutSeconds * 1_000;
      worker.postMessage({ id, event, deadline: Date.now() + timeoutMs });
      const timer = setTimeout(() => void worker.terminate(), timeoutMs);
      try {
        return await answer;
      } finally {
        clearTimeout(timer);
        pending.delete(id);
      }
    },
  };
}

/** One function's instances: an idle one is reused, else a new one starts (a cold start). */
export class LambdaFunction {
  private idle: ReturnType<typeof startInstance>[] = [];
  private busy = new Set<ReturnType<typeof startInstance>>();
  invocations = 0;

  constructor(
    readonly fn: DeployedFunction,
    private environment: Record<string, string>,
    private logs: LogLine[],
  ) {}

  async invoke(event: unknown): Promise<Omit<Answer, 'id'>> {
    const instance = this.idle.pop() ?? startInstance(this.fn, this.environment, this.logs);
    this.busy.add(instance);
    this.invocations++;
    const answer = await instance.invoke(event);
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
    await Promise.all([...this.idle.splice(0), ...this.busy].map((instance) => instance.kill()));
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

const failedIds = (answer: Omit<Answer, 'id'>) =>
  ((answer.result as { batchItemFailures?: { itemIdentifier: string }[] })?.batchItemFailures ?? []).map(
    (failure) => failure.itemIdentifier,
  );

interface Sources {
  stack: DeployedStack;
  sqs: SQSClient;
  /** Calls DynamoDB Streams' JSON API as the harness. */
  streams(action: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The stream's ARN as DynamoDB Local names it, by the table's logical id. */
  streamArn(tableId: string): string;
  functions: Map<string, LambdaFunction>;
}

type StreamRecord = {
  shardId: string;
  dynamodb: { SequenceNumber: string; ApproximateCreationDateTime: number };
};

/** Runs every event source mapping of the stack until stopped. */
export function runEventSources({ stack, sqs, streams, streamArn, functions }: Sources) {
  let stopped = false;
  /** Messages received and neither deleted nor received again since: what waits out a visibility timeout. */
  const invisible = new Map<string, { QueueUrl: string; ReceiptHandle: string }>();
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
    const { url: QueueUrl, arn } = stack.queues.get(mapping.sourceId) ?? {};
    const fn = functionOf(mapping);
    while (!stopped) {
      const windowEnds = Date.now() + mapping.batchingWindowSeconds * 1_000;
      const messages: Message[] = [];
      do {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl,
            MaxNumberOfMessages: Math.min(10, mapping.batchSize - messages.length),
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
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
      for (const { MessageId, ReceiptHandle } of messages)
        invisible.set(String(MessageId), {
          QueueUrl: String(QueueUrl),
          ReceiptHandle: String(ReceiptHandle),
        });
      const answer = await fn.invoke({
        Records: messages.map((message) => ({
          messageId: message.MessageId,
          receiptHandle: message.ReceiptHandle,
          body: message.Body,
          attributes: message.Attributes ?? {},
          md5OfBody: message.MD5OfBody,
          eventSource: 'aws:sqs',
          eventSourceARN: arn,
          awsRegion: stack.region,
        })),
      });
      if (answer.error) continue;
      const failed = mapping.reportsItemFailures ? failedIds(answer) : [];
      const done = messages.filter((message) => !failed.includes(String(message.MessageId)));
      for (let start = 0; start < done.length; start += 10) {
        const Entries = done
          .slice(start, start + 10)
          .map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle }));
        await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries }));
      }
      for (const message of done) invisible.delete(String(message.MessageId));
    }
  }

  /** What Lambda sends a stream mapping's on-failure destination: where the record is, never the record. */
  async function giveUp(mapping: EventSourceMapping, { shardId, dynamodb }: StreamRecord, condition: string) {
    const queue = mapping.onFailureQueueId && stack.queues.get(mapping.onFailureQueueId);
    if (!queue) return;
    const pointer = {
      requestContext: {
        functionArn: `arn:aws:lambda:${stack.region}:${ACCOUNT}:function:${mapping.functionId}`,
        condition,
      },
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: dynamodb.SequenceNumber,
        endSequenceNumber: dynamodb.SequenceNumber,
        batchSize: 1,
        streamArn: streamArn(mapping.sourceId),
      },
    };
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: JSON.stringify(pointer) }));
  }

  /** Every shard, every record in order; `from` TRIM_HORIZON replays the stream's whole day. */
  async function pollStream(mapping: EventSourceMapping, from = mapping.startingPosition) {
    const fn = functionOf(mapping);
    const StreamArn = streamArn(mapping.sourceId);
    const iterators = new Map<string, string | undefined>();
    let retries = 0;
    let pending: StreamRecord[] = [];
    while (!stopped) {
      const { StreamDescription } = (await streams('DescribeStream', { StreamArn })) as {
        StreamDescription: { Shards: { ShardId: string }[] };
      };
      for (const { ShardId } of StreamDescription.Shards)
        if (!iterators.has(ShardId)) {
          const iterator = await streams('GetShardIterator', { StreamArn, ShardId, ShardIteratorType: from });
          iterators.set(ShardId, iterator.ShardIterator as string);
        }
      for (const [shardId, ShardIterator] of iterators) {
        if (!ShardIterator) continue;
        const { Records = [], NextShardIterator } = (await streams('GetRecords', { ShardIterator })) as {
          Records?: { dynamodb: Record<string, unknown> }[];
          NextShardIterator?: string;
        };
        iterators.set(shardId, NextShardIterator);
        for (const record of Records) {
          const { ApproximateCreationDateTime } = record.dynamodb;
          const dynamodb = {
            ...record.dynamodb,
            ApproximateCreationDateTime: Number(ApproximateCreationDateTime),
          };
          const event = {
            ...record,
            shardId,
            eventSource: 'aws:dynamodb',
            eventSourceARN: StreamArn,
            dynamodb,
          };
          if (mapping.filters.length === 0 || mapping.filters.some((filter) => matchesPattern(filter, event)))
            pending.push({ ...event, awsRegion: stack.region } as unknown as StreamRecord);
        }
      }
      while (!stopped && pending.length > 0) {
        const batch = pending.slice(0, mapping.batchSize);
        const answer = await fn.invoke({ Records: batch });
        const failed = answer.error ? [batch[0]?.dynamodb.SequenceNumber] : failedIds(answer);
        const failure = batch.findIndex((record) => failed.includes(record.dynamodb.SequenceNumber));
        if (failure === -1) {
          pending = pending.slice(batch.length);
          retries = 0;
          continue;
        }
        pending = pending.slice(failure);
        const first = pending[0] as StreamRecord;
        const createdAt = first.dynamodb.ApproximateCreationDateTime * 1_000;
        const maxAgeMs = mapping.maxRecordAgeSeconds > 0 ? mapping.maxRecordAgeSeconds * 1_000 : Infinity;
        const tooOld = createdAt < agedBefore || Date.now() - createdAt > maxAgeMs;
        if (tooOld || ++retries > mapping.maxRetries) {
          await giveUp(mapping, first, tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted');
          pending = pending.slice(1);
          retries = 0;
        }
        await delay(500);
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
  for (const mapping of stack.mappings)
    if (mapping.kind === 'stream') start(() => pollStream(mapping));
    else for (let lane = 0; lane < mapping.maxConcurrency; lane++) start(() => pollQueue(mapping));

  return {
    errors,
    /** Every message received and not deleted becomes visible again now, as once its timeout ran out. */
    async endVisibilityTimeouts(): Promise<number> {
      const entries = [...invisible.values()];
      invisible.clear();
      for (const entry of entries)
        await sqs
          .send(new ChangeMessageVisibilityCommand({ ...entry, VisibilityTimeout: 0 }))
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
