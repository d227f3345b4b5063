import type { SignupSource } from './signup-source';

/** The waitlist table's key, shared by the CDK stack and the local store so both have the same shape. */
export const WAITLIST_TABLE_KEY = { name: 'email', type: 'S' } as const;

/**
 * The index that finds a record by the hash of its confirmation token (a link never names the address).
 * It holds the keys, and what confirming needs to know: the status and when the person joined.
 */
export const TOKEN_INDEX = {
  name: 'byTokenHash',
  key: { name: 'tokenHash', type: 'S' },
  projection: ['status', 'createdAt'],
} as const;

/**
 * The index that finds every record of one mailbox: a spelling of an address is a record of its own
 * (`ann+news@gmail.com` and `a.nn@googlemail.com` are two keys), while the person is the mailbox they all
 * deliver to (#contract/email-address `deliveryKey`). Keyed on the record's `mailbox` attribute, a hash of
 * that delivery key (never the address), written at signup; a one-click leave queries it to remove every
 * record of the person's mailbox. Keys only: the leave needs nothing else from it.
 */
export const MAILBOX_INDEX = {
  name: 'byMailbox',
  key: { name: 'mailbox', type: 'S' },
} as const;

/**
 * How long a confirmed record may be kept: the privacy notice promises that an address is deleted at the
 * latest this long after signing up. DynamoDB's time to live enforces it in production.
 */
export const RETENTION_DAYS = 365;

/**
 * How long a confirmation link works, and how long a pending (unconfirmed) record is kept: the table's
 * time to live deletes it then, unless it is confirmed first.
 */
export const PENDING_DAYS = 7;

/**
 * The confirmation mail is sent again on a new signup at most this often, and this many times in all (and
 * never more than MAILS_PER_MAILBOX in any 24 hours to one mailbox, #contract/abuse-limits).
 */
export const MAIL_RESEND_INTERVAL_MINUTES = 10;
export const MAX_CONFIRMATION_MAILS = 5;
/**
 * How many people left the waitlist (their records are gone), kept in the waitlist table under this key,
 * which no address can be (it has no at sign), in the attribute `count`. It has no expiresAt: it stays.
 * Every scan of records leaves it out (it has no createdAt).
 */
export const LEFT_COUNTER_KEY = '#left';

/**
 * What a leave-link request writes when it asks no mail (no record, a do-not-mail mark, asked lately), in
 * place of the record's own mark: every request then reads one item and writes one, and the answer's time
 * does not tell whether the address is on the list. A key no address can be (no at sign), holding only
 * the latest such request's id and time, no address; no createdAt, so every scan of people leaves it out.
 */
export const LEAVE_REQUEST_STAND_IN_KEY = '#leave-request';

/** The attribute DynamoDB's time to live reads: when the record is deleted, in seconds since 1970. */
export const WAITLIST_TABLE_EXPIRY_ATTRIBUTE = 'expiresAt';

export type WaitlistStatus = 'pending' | 'confirmed';

/** Why no mail may go to a mailbox any more: it bounced for good, or its owner marked a mail as spam. */
export type MailSuppression = 'bounce' | 'complaint';

/** One person on the waitlist. Nothing else is stored: no IP address, no user agent. */
export interface WaitlistRecord {
  /**
   * The address's canonical form (#contract/email-address): `Ann@Bücher.de`, ` ann@xn--bcher-kva.de.`
   * and every other way of typing it are one key, so one record. Another spelling of the same mailbox
   * (`ann+news@`, at Gmail `a.nn@`) is a record of its own; `mailbox` is what they share.
   */
  email: string;
  /**
   * The mailbox the address delivers to, hashed (functions/store/mailbox.ts): the mailbox index's key, the
   * same for every spelling of one mailbox.
   */
  mailbox: string;
  /** The address as typed, trimmed, for writing to the person as they wrote it. */
  emailAsEntered: string;
  /** The language of the signup, and so of the confirmation mail. */
  language: 'nl' | 'en';
  /** ISO 8601 time of joining. */
  createdAt: string;
  /** The version of the signup note and privacy sentence the person saw (SIGNUP_NOTE_VERSION). */
  consentVersion: string;
  /**
   * Where the signup came from, coarse (#contract/signup-source): UTM values and the referring host, each
   * from a small safe alphabet; absent when it came with none (`direct`).
   */
  source?: SignupSource;
  /** Pending until the person confirms by mail; then confirmed. */
  status: WaitlistStatus;
  /**
   * When DynamoDB deletes the record (Unix time in seconds): PENDING_DAYS after the latest confirmation
   * mail was asked for while pending, RETENTION_DAYS after joining once confirmed.
   */
  expiresAt: number;

  /** A confirmation mail asked for (by the signup, or a later one): the mailer sends it for this id. */
  mailRequestId?: string;
  /** ISO 8601 time of that request, for the resend interval. */
  mailRequestedAt?: string;
  /** How many confirmation mails were asked for, at most MAX_CONFIRMATION_MAILS. */
  mailsRequested?: number;
  /** The request the mailer has sent a mail for; equal to mailRequestId once the latest mail is out. */
  mailedRequestId?: string;
  /**
   * The record's link id (random, 16 bytes, base64url): the part of every confirmation link that finds the
   * record. Alone it confirms nothing: each link also holds a secret of its own mail (mailTokenHashes).
   */
  linkId?: string;
  /** SHA-256 (hex) of linkId: the token index's key, so a link finds its record without naming the address. */
  tokenHash?: string;
  /**
   * SHA-256 (hex) of the secret in each confirmation mail sent for this record. A resend adds one and takes
   * none away: every link the person has works until it expires. The secrets themselves are never stored.
   */
  mailTokenHashes?: string[];
  /**
   * SHA-256 (hex) of the token of the mail being sent now: it joins mailTokenHashes once the mail is out
   * (a retry replaces it), so the list holds only mails that went, and a link works from the moment it is
   * sent.
   */
  pendingTokenHash?: string;
  /**
   * Set when SES reported a permanent bounce or a complaint for this mailbox (by mail-events, or by the
   * mailer when another spelling of the mailbox bounced): no mail of any kind goes to it again, and the
   * person is off the waitlist (not counted, not announced). The record is kept only until its expiresAt,
   * as a do-not-mail mark; the mailbox's own suppression, in the mail limit table, outlives it.
   */
  mailSuppressed?: MailSuppression;
  /** ISO 8601 time SES reported it. */
  mailSuppressedAt?: string;

  /**
   * The record's leave key (random, 16 bytes, base64url): with linkId it makes the person's leave link
   * (#contract/leave), the same in every mail, working as long as the record exists. Made with linkId, by
   * whichever mail comes first.
   */
  leaveKey?: string;
  /** A mail with the leave link asked for by the privacy page's form: the mailer sends it for this id. */
  leaveMailRequestId?: string;
  /** ISO 8601 time of that request, for LEAVE_MAIL_INTERVAL_MINUTES. */
  leaveMailRequestedAt?: string;
  /** The leave-link request the mailer has sent a mail for. */
  leaveMailedRequestId?: string;

  /** The announcements this person got (their ids: the folder names), never two of one. */
  announcements?: Set<string> | string[];
  /**
   * The announcement whose mail to this person is being sent now. If a run stops between marking this and
   * recording the mail as sent, whether it went is unknown: it is reported by count and never repeated.
   */
  announcing?: string;
  /** ISO 8601 time `announcing` was set. */
  announcingAt?: string;

  /** ISO 8601 time of confirming. */
  confirmedAt?: string;
  /** The version of the text the person confirmed (SIGNUP_NOTE_VERSION at the time). */
  confirmedConsentVersion?: string;
}
