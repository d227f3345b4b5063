import { createHash, randomBytes } from 'node:crypto';
import { SECONDS_PER_DAY } from '#contract/time';
import { PENDING_DAYS } from '#contract/waitlist-table';

// base64url of: when it was made (4 bytes, seconds, so expiry needs no look-up), the record's link id (16
// bytes, whose hash finds the record without naming the address), and this mail's secret (16 bytes). The
// table keeps only hashes, never a working link; changing any part changes the hash, confirming nothing.
/** A clock a little ahead of ours is not a forgery. */
const CLOCK_SKEW_SECONDS = 5 * 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const secondsOf = (at: Date) => Math.floor(at.getTime() / 1000);

export const newLinkId = () => randomBytes(16).toString('base64url');
export const hashOfLinkId = sha256;
export const hashOfToken = sha256;

export function newConfirmationToken(linkId: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{22}$/.test(linkId)) throw new Error('linkId is not a link id');
  const time = Buffer.alloc(4);
  time.writeUInt32BE(secondsOf(now));
  const token = Buffer.concat([time, Buffer.from(linkId, 'base64url'), randomBytes(16)]).toString(
    'base64url',
  );
  return { token, hash: hashOfToken(token), linkHash: hashOfLinkId(linkId) };
}

/** An expired token still has its hashes: its signup may have been confirmed with it in time. */
export function checkConfirmationToken(token: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{48}$/.test(token)) return { ok: false, problem: 'invalid' } as const;
  const bytes = Buffer.from(token, 'base64url');
  const age = secondsOf(now) - bytes.readUInt32BE(0);
  if (age < -CLOCK_SKEW_SECONDS) return { ok: false, problem: 'invalid' } as const;
  const hashes = {
    hash: hashOfToken(token),
    linkHash: hashOfLinkId(bytes.subarray(4, 20).toString('base64url')),
  };
  if (age > PENDING_DAYS * SECONDS_PER_DAY) return { ok: false, problem: 'expired', ...hashes } as const;
  return { ok: true, ...hashes } as const;
}
