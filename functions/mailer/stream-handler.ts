import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { METRIC } from '#contract/metrics';
import { OWED_MAILS, type WaitlistRecord } from '#contract/waitlist-table';
import { requiredEnv } from '../strict-input';
import { errorNameOf, faultClassOf } from '../telemetry/fault-class';
import { type MetricLine, writeMetricLine } from '../telemetry/metrics';
import { jobsOwedBy } from './mail-job';

// From the table's stream to the priority queue: a spike of signups waits there (for days if it must) rather
// than in the stream, which keeps a change for a day. At a failure Lambda retries from that record.

const queueUrl = requiredEnv('MAIL_QUEUE_URL');
// The region's SQS endpoint (the queue URL's own host on AWS), or AWS_ENDPOINT_URL where one is set.
const sqs = new SQSClient({ maxAttempts: 5, useQueueUrlAsEndpoint: false });

export async function handler(event: DynamoDBStreamEvent, context?: Pick<Context, 'awsRequestId'>) {
  const log = (line: Omit<MetricLine, 'service' | 'requestId'>) =>
    writeMetricLine({ ...line, service: 'mail-requests', requestId: context?.awsRequestId });
  for (const { dynamodb } of event.Records) {
    const [record, before] = [dynamodb?.NewImage, dynamodb?.OldImage].map(
      (image) => image && (unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord),
    );
    if (typeof record?.email !== 'string' || !record.email.includes('@')) continue;
    // Owed by the new image and not asked for by the old one (that one is queued already).
    const jobs = jobsOwedBy(record).filter((job) => job.requestId !== before?.[OWED_MAILS[job.kind].asked]);
    if (jobs.length === 0) continue;
    try {
      // At most two: a confirmation and a leave link.
      const { Failed: [failed] = [] } = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: jobs.map((job, index) => ({ Id: String(index), MessageBody: JSON.stringify(job) })),
        }),
      );
      if (failed)
        throw Object.assign(new Error('the queue refused messages'), { name: failed.Code ?? 'QueueError' });
      log({
        message: 'mail queued',
        level: 'INFO',
        counts: { [METRIC.mailQueued]: jobs.length },
        fields: { kinds: jobs.map((job) => job.kind).join(',') },
      });
    } catch (error) {
      log({
        message: 'mail not queued',
        level: 'ERROR',
        counts: { [METRIC.mailFailed]: 1 },
        faultClass: faultClassOf(error),
        fields: { errorName: errorNameOf(error) },
      });
      return { batchItemFailures: [{ itemIdentifier: dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
