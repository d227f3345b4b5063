import { createHash } from 'node:crypto';
import { deliveryKey } from '#contract/email-address';

// A prefix per use, so two never meet; the limit table's budget keeps the bare hash.
const PREFIX = { limit: '', suppression: 'suppressed:', record: 'mailbox:', left: 'left:' } as const;

/** Every spelling of one mailbox has the same value, which names no address. */
export const mailboxHash = (use: keyof typeof PREFIX, emailKey: string) =>
  createHash('sha256')
    .update(`${PREFIX[use]}${deliveryKey(emailKey)}`)
    .digest('hex');

export const mailboxHashOf = (emailKey: string) => mailboxHash('record', emailKey);
