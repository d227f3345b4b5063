/**
 * The waitlist API's contract: path, limits, request and response shapes. The handler, the local runner
 * and the page all import it. It has no runtime dependencies, so the page pays only for what it uses.
 */
import type { Locale } from './locales';

export const WAITLIST_PATH = '/api/waitlist';

/** Requests larger than this are refused before they are parsed. */
export const MAX_REQUEST_BYTES = 1024;

/**
 * Which text a visitor agreed to by signing up: the signup note (messages.*.signup.note) and the privacy
 * sentence after it, with its link to the privacy notice (messages.*.signup.privacySentence and
 * privacyLink). Change it whenever either wording changes, so every record says what its owner was told.
 */
export const SIGNUP_NOTE_VERSION = '2026-11-21.2';

export interface JoinWaitlistRequest {
  email: string;
  language: Locale;
  /** A honeypot: hidden from people, so only robots fill it in. */
  website?: string;
}

export type JoinWaitlistError =
  | 'already_registered'
  | 'invalid_email'
  | 'invalid_request'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'unavailable';

export type JoinWaitlistResponse = { status: 'joined' } | { error: JoinWaitlistError };

export const WAITLIST_HTTP_STATUS = {
  joined: 201,
  already_registered: 409,
  invalid_email: 400,
  invalid_request: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  method_not_allowed: 405,
  unavailable: 503,
} as const satisfies Record<'joined' | JoinWaitlistError, number>;
