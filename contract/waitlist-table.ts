import type { SignupSource } from './signup-source';

export const WAITLIST_TABLE_KEY = { name: 'email', type: 'S' } as const;

/** Finds a record by its link id's hash (a link never names the address). */
export const TOKEN_INDEX = {
  name: 'byTokenHash',
  key: { name: 'tokenHash', type: 'S' },
  projection: ['status', 'createdAt'],
} as const;

/** Finds every spelling's record of one mailbox, so a one-click leave removes them all. Keys only. */
export const MAILBOX_INDEX = { name: 'byMailbox', key: { name: 'mailbox', type: 'S' } } as const;

/** The privacy notice promises a confirmed address is deleted at the latest this long after signup. */
export const RETENTION_DAYS = 365;
/** How long a confirmation link works and an unconfirmed record is kept. */
export const PENDING_DAYS = 7;
/** Confirmation mail resends: at most this often and this many in all (and MAILS_PER_MAILBOX a day). */
export const MAIL_RESEND_INTERVAL_MINUTES = 10;
export const MAX_CONFIRMATION_MAILS = 5;
// Keys no address can be, no createdAt: who left, a mailbox's leave mark (one leave counts once), a stand-in.
export const LEFT_COUNTER_KEY = '#left';
export const leftMarkKey = (mailboxHash: string) => `${LEFT_COUNTER_KEY}#${mailboxHash}`;
export const LEFT_MARK_SECONDS = 3600;
export const LEAVE_REQUEST_STAND_IN_KEY = '#leave-request';

/** Read by DynamoDB's time to live, in seconds since 1970. */
export const WAITLIST_TABLE_EXPIRY_ATTRIBUTE = 'expiresAt';

export type WaitlistStatus = 'pending' | 'confirmed';
export type MailSuppression = 'bounce' | 'complaint';

/** One person on the waitlist. Nothing else is stored: no IP address, no user agent. */
export interface WaitlistRecord {
  /** The canonical key (#contract/email-address); another spelling of the mailbox is another record. */
  email: string;
  /** The delivery key, hashed (functions/store/mailbox.ts): the mailbox index's key. */
  mailbox: string;
  emailAsEntered: string;
  language: 'nl' | 'en';
  createdAt: string;
  /** SIGNUP_NOTE_VERSION the person saw. */
  consentVersion: string;
  /** Absent when `direct`. */
  source?: SignupSource;
  status: WaitlistStatus;
  /** PENDING_DAYS after the latest mail asked for while pending, RETENTION_DAYS after joining once confirmed. */
  expiresAt: number;

  /** A confirmation mail asked for: the mailer sends it for this id. */
  mailRequestId?: string;
  mailRequestedAt?: string;
  mailsRequested?: number;
  /** Equal to mailRequestId once the latest mail is out. */
  mailedRequestId?: string;
  /** Random, 16 bytes, base64url; alone it confirms nothing: each link also holds its mail's secret. */
  linkId?: string;
  /** SHA-256 (hex) of linkId. */
  tokenHash?: string;
  /** SHA-256 (hex) of each sent mail's secret; a resend adds one, so every link works until it expires. */
  mailTokenHashes?: string[];
  /** The secret's hash of the mail being sent now: joins mailTokenHashes once it is out. */
  pendingTokenHash?: string;
  /** A permanent bounce or complaint: off the waitlist, kept until expiresAt as a do-not-mail mark. */
  mailSuppressed?: MailSuppression;
  mailSuppressedAt?: string;

  /** Random, 16 bytes, base64url: with linkId the person's leave link (#contract/leave). */
  leaveKey?: string;
  leaveMailRequestId?: string;
  leaveMailRequestedAt?: string;
  leaveMailedRequestId?: string;

  /** Announcement ids this person got, never two of one. */
  announcements?: Set<string> | string[];
  /** Being sent now; if a run stops before recording it, whether it went is unknown: never repeated. */
  announcing?: string;
  announcingAt?: string;

  confirmedAt?: string;
  confirmedConsentVersion?: string;
}

// The mails a record owes while their request id is not the last one sent (a confirmation: while pending).
export const OWED_MAILS = {
  confirmation: { asked: 'mailRequestId', done: 'mailedRequestId', at: 'mailRequestedAt', status: 'pending' },
  'leave-link': { asked: 'leaveMailRequestId', done: 'leaveMailedRequestId', at: 'leaveMailRequestedAt' },
} as const;
