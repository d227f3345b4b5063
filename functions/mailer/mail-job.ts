import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import type { WaitlistRecord } from '#contract/waitlist-table';

/**
 * A mail a person asked for, as it waits on the mail queue: which kind, whose record (its key, an
 * address: the queue is encrypted and keeps it no longer than needed), and which request. What the mail
 * says is read from the record when it goes, so a queue never holds a link or a token.
 */
export const mailJobSchema = z.object({
  kind: z.enum(['confirmation', 'leave-link']),
  key: z.string().check(z.includes('@')),
  requestId: z.string().check(z.minLength(1)),
});
export type MailJob = z.infer<typeof mailJobSchema>;
export type MailKind = MailJob['kind'];

/** Whether `record` still owes the mail of `kind`, and for which request: none when it owes none. */
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

/** The jobs a record owes now: one per kind of mail still to go. */
export function jobsOwedBy(record: WaitlistRecord): MailJob[] {
  return (['confirmation', 'leave-link'] as const).flatMap((kind) => {
    const requestId = owedRequest(record, kind);
    return requestId ? [{ kind, key: record.email, requestId }] : [];
  });
}

/**
 * The mails a change of the table asks for: those its new image owes that its old image did not ask
 * for. A change that kept the request it had (the mailer's own claim and mark, say) asks for nothing new:
 * its mail is already queued.
 */
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

/** When the mail of `kind` was asked for, as the record says (for its lag, and whether it is late). */
export function requestedAt(record: WaitlistRecord, kind: MailKind): Date | undefined {
  const at = kind === 'confirmation' ? record.mailRequestedAt : record.leaveMailRequestedAt;
  const time = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(time) ? undefined : new Date(time);
}
