// From the table's stream to the priority queue (functions/mailer/stream-handler.ts), SQS mocked.
import { SendMessageBatchCommand, type SendMessageBatchCommandOutput, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { mailboxHashOf } from '../../../functions/store/mailbox';
import { capturedLogLines } from './captured-log';
import { readEmf } from './cloudwatch-emf';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mandje-priority';
vi.stubEnv('MAIL_QUEUE_URL', QUEUE_URL);
const { handler } = await import('../../../functions/mailer/stream-handler');

const sqs = mockClient(SQSClient);
const logLines = capturedLogLines();
beforeEach(() => {
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

const PENDING: WaitlistRecord = {
  email: 'ann@xn--bcher-kva.de',
  mailbox: mailboxHashOf('ann@xn--bcher-kva.de'),
  emailAsEntered: 'Ann@Bücher.de',
  language: 'nl',
  createdAt: '2026-11-24T09:00:00.000Z',
  consentVersion: '2026-11-22.1',
  status: 'pending',
  expiresAt: 1_800_000_000,
  mailRequestId: 'request-1',
  mailRequestedAt: '2026-11-24T09:00:00.000Z',
  mailsRequested: 1,
};

let sequence = 0;
function streamRecord(image: { email: string } | undefined, before?: { email: string }): DynamoDBRecord {
  const key = (image ?? before)?.email ?? '';
  return {
    eventName: !image ? 'REMOVE' : before ? 'MODIFY' : 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: marshall({ email: key }) as never,
      ...(image ? { NewImage: marshall(image, { removeUndefinedValues: true }) as never } : {}),
      ...(before ? { OldImage: marshall(before, { removeUndefinedValues: true }) as never } : {}),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** The jobs put on the queue, in order, as the mailer will read them. */
const queued = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .flatMap((call) => call.args[0].input.Entries ?? [])
    .map((entry) => JSON.parse(entry.MessageBody ?? '') as unknown);
const batches = () => sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);
const pending = (n: number): WaitlistRecord => ({
  ...PENDING,
  email: `person${n}@example.nl`,
  emailAsEntered: `person${n}@example.nl`,
  mailRequestId: `request-${n}`,
});

describe('queuing the mails the table asks for', () => {
  const confirmed: WaitlistRecord = { ...PENDING, status: 'confirmed', mailedRequestId: 'request-1' };
  const claimed = { ...PENDING, linkId: 'AAAAAAAAAAAAAAAAAAAAAA', pendingTokenHash: 'h' };
  const job = (kind: string, requestId: string) => ({ kind, key: PENDING.email, requestId });

  it.each([
    ['a new pending signup', PENDING, undefined, [job('confirmation', 'request-1')]],
    [
      'a later signup of a pending address, replacing the request mailed',
      { ...PENDING, mailedRequestId: 'request-1', mailRequestId: 'request-2', mailsRequested: 2 },
      { ...PENDING, mailedRequestId: 'request-1' },
      [job('confirmation', 'request-2')],
    ],
    [
      'the privacy page’s form',
      { ...confirmed, leaveMailRequestId: 'leave-1' },
      confirmed,
      [job('leave-link', 'leave-1')],
    ],
    [
      'a record asking for both at once',
      { ...PENDING, leaveMailRequestId: 'leave-1' },
      undefined,
      [job('confirmation', 'request-1'), job('leave-link', 'leave-1')],
    ],
    ['the mailer’s own claim', claimed, PENDING, []],
    [
      'the mailer’s own mark',
      { ...claimed, mailedRequestId: 'request-1', mailTokenHashes: ['h'] },
      claimed,
      [],
    ],
    ['a confirmation', { ...PENDING, status: 'confirmed', confirmedAt: '2026-11-24T09:05:00Z' }, PENDING, []],
    ['a confirmed record written whole', { ...confirmed, email: 'bob@example.nl' }, undefined, []],
    ['a removal', undefined, PENDING, []],
    ['an announcement’s own item', { email: '#announcement#launch', rate: 14, pass: 1 }, undefined, []],
  ])(
    'queues for %s what it asks for, naming no link or token, counted on one line without the address',
    async (_what, image, before, jobs) => {
      const context = { awsRequestId: 'invocation-1' };
      expect(await handler({ Records: [streamRecord(image, before)] }, context)).toEqual({
        batchItemFailures: [],
      });

      expect(queued()).toEqual(jobs);
      expect(batches().map((batch) => batch.QueueUrl)).toEqual(jobs.length ? [QUEUE_URL] : []);
      const points = logLines.map(
        (line) => readEmf(line).find((point) => point.name === 'MailQueued')?.value,
      );
      expect(points).toEqual(jobs.length ? [jobs.length] : []);
      if (jobs.length)
        expect(JSON.parse(logLines[0] as string)).toMatchObject({
          Service: 'mail-requests',
          kinds: jobs.map((job) => job.kind).join(','),
          requestId: 'invocation-1',
        });
      expect(logLines.join('\n')).not.toMatch(/ann|bcher|bob|example\.nl/i);
    },
  );

  // Many records at once, each mailed once through the queue: test/aws/mail-pace.test.ts.
  it.each([
    [
      'refuses the call',
      async (): Promise<SendMessageBatchCommandOutput> => {
        throw Object.assign(new Error('down'), { name: 'InternalError', $fault: 'server' });
      },
    ],
    [
      'refuses an entry',
      async (): Promise<SendMessageBatchCommandOutput> => ({
        Successful: [],
        Failed: [{ Id: '0', Code: 'KMS.ThrottlingException', SenderFault: false }],
        $metadata: {},
      }),
    ],
  ])(
    'stops at the first record the queue %s and names it, having queued those before',
    async (_how, refusal) => {
      const first = streamRecord(pending(1));
      const second = streamRecord(pending(2));
      const third = streamRecord(pending(3));
      let calls = 0;
      sqs
        .on(SendMessageBatchCommand)
        .callsFake(async () =>
          ++calls === 1
            ? { Successful: [{ Id: '0', MessageId: 'm', MD5OfMessageBody: '' }], Failed: [] }
            : refusal(),
        );

      const result = await handler({ Records: [first, second, third] }, { awsRequestId: 'invocation-1' });

      expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: second.dynamodb?.SequenceNumber }] });
      expect(batches()).toHaveLength(2);
      expect(logLines.map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({ message: 'mail queued', MailQueued: 1 }),
        expect.objectContaining({ level: 'ERROR', message: 'mail not queued', MailFailed: 1 }),
      ]);
    },
  );
});
