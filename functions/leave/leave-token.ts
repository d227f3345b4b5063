import { randomBytes } from 'node:crypto';
import { hashOfLinkId, newLinkId } from '../confirm/confirmation-token';

/**
 * A person's leave token: the record's link id (16 bytes, whose hash finds the record in the token index)
 * and its leave key (16 random bytes, kept on the record), base64url, 43 characters. The same in every
 * mail to that person, so each mail's link works as long as the record exists; 128 random bits that only
 * the person's mails carry, so nobody can guess or forge another's.
 */
const KEY_BYTES = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newLeaveKey = () => randomBytes(KEY_BYTES).toString('base64url');

/** The link keys a record gets with its first mail of any kind: kept if it has them already. */
export const newLinkKeys = () => ({ linkId: newLinkId(), leaveKey: newLeaveKey() });

export function leaveToken(linkId: string, leaveKey: string): string {
  const bytes = Buffer.concat([Buffer.from(linkId, 'base64url'), Buffer.from(leaveKey, 'base64url')]);
  if (bytes.length !== 2 * KEY_BYTES) throw new Error('not a link id and a leave key');
  return bytes.toString('base64url');
}

/** What a leave token says: the token index's key for its record, and the leave key to check it against. */
export function parseLeaveToken(token: string): { linkHash: string; leaveKey: string } | undefined {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  return {
    linkHash: hashOfLinkId(bytes.subarray(0, KEY_BYTES).toString('base64url')),
    leaveKey: bytes.subarray(KEY_BYTES).toString('base64url'),
  };
}
