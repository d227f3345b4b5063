import * as z from 'zod/mini';
import { OWED_MAILS, type WaitlistRecord } from '#contract/waitlist-table';

/** A mail asked for, on the (encrypted) queue; its words are read from the record, so no link or token waits. */
export const mailJobSchema = z.object({
  kind: z.enum(Object.keys(OWED_MAILS) as [keyof typeof OWED_MAILS]),
  key: z.string().check(z.includes('@')),
  requestId: z.string().check(z.minLength(1)),
});
export type MailJob = z.infer<typeof mailJobSchema>;

export function owedRequest(record: WaitlistRecord | undefined, kind: MailJob['kind']): string | undefined {
  const mail = OWED_MAILS[kind];
  if (!record || ('status' in mail && record.status !== mail.status)) return undefined;
  return record[mail.asked] !== record[mail.done] ? record[mail.asked] : undefined;
}

export function jobsOwedBy(record: WaitlistRecord): MailJob[] {
  return (Object.keys(OWED_MAILS) as MailJob['kind'][]).flatMap((kind) => {
    const requestId = owedRequest(record, kind);
    return requestId ? [{ kind, key: record.email, requestId }] : [];
  });
}
