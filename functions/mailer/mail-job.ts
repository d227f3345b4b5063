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
export type MailKind = MailJob['kind'];

/** The request for which `record` still owes the mail of `kind`, if any. */
export function owedRequest(record: WaitlistRecord | undefined, kind: MailKind): string | undefined {
  if (!record) return undefined;
  if (kind === 'confirmation')
    return record.status === 'pending' &&
      record.mailRequestId !== undefined &&
      record.mailRequestId !== record.mailedRequestId
      ? record.mailRequestId
      : undefined;
  return record.leaveMailRequestId !== undefined && record.leaveMailRequestId !== record.leaveMailedRequestId
    ? record.leaveMailRequestId
    : undefined;
}

export function jobsOwedBy(record: WaitlistRecord): MailJob[] {
  return (['confirmation', 'leave-link'] as const).flatMap((kind) => {
    const requestId = owedRequest(record, kind);
    return requestId ? [{ kind, key: record.email, requestId }] : [];
  });
}

/** The mails a change asks for: owed by its new image, not asked for by its old one (already queued). */
export function jobsAskedBy(streamRecord: DynamoDBRecord): MailJob[] {
  const image = streamRecord.dynamodb?.NewImage;
  if (!image) return [];
  const record = unmarshall(image as Record<string, AttributeValue>) as WaitlistRecord;
  if (typeof record.email !== 'string' || !record.email.includes('@')) return [];
  const oldImage = streamRecord.dynamodb?.OldImage;
  const before = oldImage
    ? (unmarshall(oldImage as Record<string, AttributeValue>) as WaitlistRecord)
    : undefined;
  return jobsOwedBy(record).filter(
    (job) =>
      job.requestId !== (job.kind === 'confirmation' ? before?.mailRequestId : before?.leaveMailRequestId),
  );
}

export function requestedAt(record: WaitlistRecord, kind: MailKind): Date | undefined {
  const at = kind === 'confirmation' ? record.mailRequestedAt : record.leaveMailRequestedAt;
  const time = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(time) ? undefined : new Date(time);
}
