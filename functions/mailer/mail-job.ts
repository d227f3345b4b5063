import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import type { WaitlistRecord } from '#contract/waitlist-table';

/** A mail asked for, on the (encrypted) queue; its words are read from the record, so no link or token waits. */
export const mailJobSchema = z.object({
  kind: z.enum(['confirmation', 'leave-link']),
  key: z.string().check(z.includes('@')),
  requestId: z.string().check(z.minLength(1)),
});
export type MailJob = z.infer<typeof mailJobSchema>;

export const REQUEST_FIELDS = {
  confirmation: { asked: 'mailRequestId', done: 'mailedRequestId', at: 'mailRequestedAt' },
  'leave-link': { asked: 'leaveMailRequestId', done: 'leaveMailedRequestId', at: 'leaveMailRequestedAt' },
} as const satisfies Record<MailJob['kind'], Record<string, keyof WaitlistRecord>>;

export function owedRequest(record: WaitlistRecord | undefined, kind: MailJob['kind']): string | undefined {
  if (!record || (kind === 'confirmation' && record.status !== 'pending')) return undefined;
  const { asked, done } = REQUEST_FIELDS[kind];
  return record[asked] !== record[done] ? record[asked] : undefined;
}

export function jobsOwedBy(record: WaitlistRecord): MailJob[] {
  return (['confirmation', 'leave-link'] as const).flatMap((kind) => {
    const requestId = owedRequest(record, kind);
    return requestId ? [{ kind, key: record.email, requestId }] : [];
  });
}

/** The mails a change asks for: owed by its new image, not asked for by its old one (already queued). */
export function jobsAskedBy({ dynamodb }: DynamoDBRecord): MailJob[] {
  const [record, before] = [dynamodb?.NewImage, dynamodb?.OldImage].map(
    (image) => image && (unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord),
  );
  if (typeof record?.email !== 'string' || !record.email.includes('@')) return [];
  return jobsOwedBy(record).filter((job) => job.requestId !== before?.[REQUEST_FIELDS[job.kind].asked]);
}
