import { createHash, randomBytes } from 'node:crypto';
import { SECONDS_PER_DAY } from '#contract/time';
import { PENDING_DAYS } from '#contract/waitlist-table';

// base64url of: when it was made (4 bytes, seconds, so expiry needs no look-up), the record's link id (16
// bytes, whose hash finds the record without naming the address), and this mail's secret (16 bytes). The
// table keeps only hashes, never a working link; changing any part changes the hash, confirming nothing.
const TIME_BYTES = 4;
const LINK_ID_BYTES = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{48}$/;
const LINK_ID_SHAPE = /^[A-Za-z0-9_-]{22}$/;
/** A clock a little ahead of ours is not a forgery. */
const CLOCK_SKEW_SECONDS = 5 * 60;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const newLinkId = () => randomBytes(LINK_ID_BYTES).toString('base64url');
export const hashOfLinkId = (linkId: string) => sha256(linkId);
export const hashOfToken = (token: string) => sha256(token);

export function newConfirmationToken(linkId: string, now = new Date()): { token: string } & TokenHashes {
  if (!LINK_ID_SHAPE.test(linkId)) throw new Error('linkId is not a link id');
  const time = Buffer.alloc(TIME_BYTES);
  time.writeUInt32BE(Math.floor(now.getTime() / 1000));
  const token = Buffer.concat([time, Buffer.from(linkId, 'base64url'), randomBytes(16)]).toString(
    'base64url',
  );
  return { token, hash: hashOfToken(token), linkHash: hashOfLinkId(linkId) };
}

type TokenHashes = { hash: string; linkHash: string };

/** An expired token still has its hashes: its signup may have been confirmed with it in time. */
export function checkConfirmationToken(
  token: string,
  now = new Date(),
):
  | ({ ok: true } & TokenHashes)
  | ({ ok: false; problem: 'expired' } & TokenHashes)
  | { ok: false; problem: 'invalid' } {
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
