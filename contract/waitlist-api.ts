// JSON is answered with JSON; a form posted without a script gets 303 to its result page (no address).
import { statusTable } from './http-status';
import { type Locale, resultPaths } from './locales';

export const WAITLIST_PATH = '/api/waitlist';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export const MAX_REQUEST_BYTES = 1024;

/** Change it whenever messages.*.signup.note or privacySentence changes: records say what was agreed. */
export const SIGNUP_NOTE_VERSION = '2026-12-07';

export interface JoinWaitlistRequest {
  email: string;
  language: Locale;
  /** A honeypot: hidden from people. */
  website?: string;
}

export const WAITLIST_HTTP_STATUS = statusTable({ joined: 201 });

export type JoinWaitlistError = Exclude<keyof typeof WAITLIST_HTTP_STATUS, 'joined'>;

export const WAITLIST_RESULTS = ['joined', 'already-registered', 'invalid-email', 'try-again'] as const;
export type WaitlistResult = (typeof WAITLIST_RESULTS)[number];

export const WAITLIST_RESULT_PATH = resultPaths('waitlist', WAITLIST_RESULTS);

/** A request the form cannot have sent is an address to check again; every fault is SPEC's one notice. */
export const WAITLIST_RESULT_OF = {
  joined: 'joined',
  already_registered: 'already-registered',
  invalid_email: 'invalid-email',
  invalid_request: 'invalid-email',
  payload_too_large: 'invalid-email',
  unavailable: 'try-again',
  internal: 'try-again',
} as const satisfies Partial<Record<'joined' | JoinWaitlistError, WaitlistResult>>;
