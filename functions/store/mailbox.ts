import { createHash } from 'node:crypto';
import { deliveryKey } from '#contract/email-address';

/**
 * Each use of a mailbox's hash has its own prefix, so two never meet: the limit table's budget keeps the
 * bare hash it has always had, its suppression item one of its own, and a record's `mailbox` attribute another.
 */
const PREFIX = { limit: '', suppression: 'suppressed:', record: 'mailbox:' } as const;

/**
 * SHA-256 (hex) of the delivery key of a canonical address, for `use`: every spelling of one mailbox (plus
 * tags, Gmail's dots, googlemail.com) has the same value, and the value itself names no address.
 */
export const mailboxHash = (use: keyof typeof PREFIX, emailKey: string) =>
  createHash('sha256')
    .update(`${PREFIX[use]}${deliveryKey(emailKey)}`, 'utf8')
    .digest('hex');

/** The mailbox a record belongs to, as its `mailbox` attribute stores it (the mailbox index's key). */
export const mailboxHashOf = (emailKey: string) => mailboxHash('record', emailKey);
