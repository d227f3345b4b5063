import { createHash } from 'node:crypto';
import { deliveryKey } from '#contract/email-address';

/**
 * The mailbox a record belongs to, as its `mailbox` attribute stores it (the mailbox index's key,
 * #contract/waitlist-table): SHA-256 (hex) of the delivery key of its canonical address, so every
 * spelling of one mailbox (plus tags, Gmail's dots, googlemail.com) has the same value, and the value
 * itself names no address. Prefixed, so it never equals a hash another table keys on.
 */
export const mailboxHashOf = (emailKey: string) =>
  createHash('sha256')
    .update(`mailbox:${deliveryKey(emailKey)}`, 'utf8')
    .digest('hex');
