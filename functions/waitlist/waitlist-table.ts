/** The waitlist table's key, shared by the CDK stack and the local store so both have the same shape. */
export const WAITLIST_TABLE_KEY = { name: 'email', type: 'S' } as const;

/** One person on the waitlist. Nothing else is stored: no IP address, no user agent. */
export interface WaitlistRecord {
  /** The address trimmed and lower-cased: `Ann@X.nl` and ` ann@x.nl ` are one person. */
  email: string;
  /** The address as typed, trimmed, for writing to the person as they wrote it. */
  emailAsEntered: string;
  language: 'nl' | 'en';
  /** ISO 8601 time of joining. */
  createdAt: string;
  consentVersion: string;
}
