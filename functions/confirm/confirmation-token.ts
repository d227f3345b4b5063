import { createHash, randomBytes } from 'node:crypto';
import { PENDING_DAYS } from '#contract/waitlist-table';

/**
 * The token in a confirmation link: when it was made (4 bytes, seconds since 1970) and 16 random bytes
 * (128 bits), in base64url, 27 characters. Only its SHA-256 is stored, so the table never holds a working
 * link. The time lets an expired link be told apart without looking anything up; changing it changes the
 * hash, so a token made to look younger confirms nothing.
 */
const TOKEN_BYTES = 20;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{27}$/;
/** A clock a little ahead of ours is not a forgery. */
const CLOCK_SKEW_SECONDS = 5 * 60;

export interface ConfirmationToken {
  token: string;
  hash: string;
}

/** An expired token still has its hash: its signup may have been confirmed with it in time. */
export type TokenCheck =
  | { ok: true; hash: string }
  | { ok: false; problem: 'expired'; hash: string }
  | { ok: false; problem: 'invalid' };

/** SHA-256 of a token, hex: what the table keeps and the index finds. */
export const hashOfToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function newConfirmationToken(now = new Date()): ConfirmationToken {
  const bytes = Buffer.alloc(TOKEN_BYTES);
  bytes.writeUInt32BE(Math.floor(now.getTime() / 1000), 0);
  randomBytes(TOKEN_BYTES - 4).copy(bytes, 4);
  const token = bytes.toString('base64url');
  return { token, hash: hashOfToken(token) };
}

/** Whether `token` is one this site could have made, still in time; and its hash to look it up by. */
export function checkConfirmationToken(token: string, now = new Date()): TokenCheck {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, problem: 'invalid' };
  const issuedAt = Buffer.from(token, 'base64url').readUInt32BE(0);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (issuedAt > nowSeconds + CLOCK_SKEW_SECONDS) return { ok: false, problem: 'invalid' };
  if (nowSeconds - issuedAt > PENDING_DAYS * 24 * 60 * 60)
    return { ok: false, problem: 'expired', hash: hashOfToken(token) };
  return { ok: true, hash: hashOfToken(token) };
}
