/** The waitlist table's key, shared by the CDK stack and the local store so both have the same shape. */
export const WAITLIST_TABLE_KEY = { name: 'email', type: 'S' } as const;

/**
 * How long a record may be kept: the privacy notice promises that an address is deleted at the latest
 * this long after signing up. DynamoDB's time to live enforces it in production.
 */
export const RETENTION_DAYS = 365;

/** The attribute DynamoDB's time to live reads: when the record is deleted, in seconds since 1970. */
export const WAITLIST_TABLE_EXPIRY_ATTRIBUTE = 'expiresAt';

/** One person on the waitlist. Nothing else is stored: no IP address, no user agent. */
export interface WaitlistRecord {
  /**
   * The mailbox's canonical identity (#contract/email-address): `Ann@Bücher.de`, ` ann@xn--bcher-kva.de.`
   * and every other way of typing it are one key, so one record.
   */
  email: string;
  /** The address as typed, trimmed, for writing to the person as they wrote it. */
  emailAsEntered: string;
  language: 'nl' | 'en';
  /** ISO 8601 time of joining. */
  createdAt: string;
  consentVersion: string;
  /** When DynamoDB deletes the record (Unix time in seconds): RETENTION_DAYS after joining. */
  expiresAt: number;
}
