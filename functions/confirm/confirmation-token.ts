import { createHash, randomBytes } from 'node:crypto';
import { SECONDS_PER_DAY } from '#contract/time';
import { PENDING_DAYS } from '#contract/waitlist-table';

/**
 * The token in a confirmation link, in base64url (48 characters), made of:
 * - when it was made (4 bytes, seconds since 1970), so an expired link is told apart without a look-up;
 * - the record's link id (16 random bytes, the same in every mail to that record), whose hash finds the
 *   record in the token index without the link naming the address;
 * - a secret of this one mail (16 random bytes, 128 bits).
 * The table keeps the hash of the link id and the hash of each whole token it mailed, never a token: it
 * never holds a working link. Each mail adds its token's hash and takes none away, so a resend leaves
 * every link the person already has working until it expires. Changing any part (making a link look
 * younger, say) changes the token's hash, and it confirms nothing.
 */
const TIME_BYTES = 4;
const LINK_ID_BYTES = 16;
const SECRET_BYTES = 16;
const TOKEN_BYTES = TIME_BYTES + LINK_ID_BYTES + SECRET_BYTES;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{48}$/;
const LINK_ID_SHAPE = /^[A-Za-z0-9_-]{22}$/;
/** A clock a little ahead of ours is not a forgery. */
const CLOCK_SKEW_SECONDS = 5 * 60;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A record's link id: made once, at its first mail, and kept. */
export const newLinkId = () => randomBytes(LINK_ID_BYTES).toString('base64url');

/** The token index's key for a record with this link id. */
export const hashOfLinkId = (linkId: string) => sha256(linkId);

/** What the record keeps of a token it mailed. */
export const hashOfToken = (token: string) => sha256(token);

export interface ConfirmationToken {
  token: string;
  /** hashOfToken(token): added to the record's mailTokenHashes. */
  hash: string;
  /** hashOfLinkId(linkId): the record's tokenHash, its key in the token index. */
  linkHash: string;
}

export function newConfirmationToken(linkId: string, now = new Date()): ConfirmationToken {
  if (!LINK_ID_SHAPE.test(linkId)) throw new Error('linkId is not a link id');
  const bytes = Buffer.alloc(TOKEN_BYTES);
  bytes.writeUInt32BE(Math.floor(now.getTime() / 1000), 0);
  Buffer.from(linkId, 'base64url').copy(bytes, TIME_BYTES);
  randomBytes(SECRET_BYTES).copy(bytes, TIME_BYTES + LINK_ID_BYTES);
  const token = bytes.toString('base64url');
  return { token, hash: hashOfToken(token), linkHash: hashOfLinkId(linkId) };
}

/** The hashes a token is looked up and checked by. */
export interface TokenHashes {
  hash: string;
  linkHash: string;
}

/** An expired token still has its hashes: its signup may have been confirmed with it in time. */
export type TokenCheck =
  | ({ ok: true } & TokenHashes)
  | ({ ok: false; problem: 'expired' } & TokenHashes)
  | { ok: false; problem: 'invalid' };

/** Whether `token` is one this site could have made, still in time; and its hashes to look it up by. */
export function checkConfirmationToken(token: string, now = new Date()): TokenCheck {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, problem: 'invalid' };
  const bytes = Buffer.from(token, 'base64url');
  const issuedAt = bytes.readUInt32BE(0);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (issuedAt > nowSeconds + CLOCK_SKEW_SECONDS) return { ok: false, problem: 'invalid' };
  const hashes = {
    hash: hashOfToken(token),
    linkHash: hashOfLinkId(bytes.subarray(TIME_BYTES, TIME_BYTES + LINK_ID_BYTES).toString('base64url')),
  };
  if (nowSeconds - issuedAt > PENDING_DAYS * SECONDS_PER_DAY)
    return { ok: false, problem: 'expired', ...hashes };
  return { ok: true, ...hashes };
}
