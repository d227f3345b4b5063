import { randomBytes } from 'node:crypto';
import { hashOfLinkId, newLinkId } from '../confirm/confirmation-token';

// The record's link id and leave key (16 bytes each), base64url: the same in every mail to the person,
// working as long as the record exists; 128 random bits nobody can guess.
const KEY_BYTES = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newLeaveKey = () => randomBytes(KEY_BYTES).toString('base64url');

export const newLinkKeys = () => ({ linkId: newLinkId(), leaveKey: newLeaveKey() });

export function leaveToken(linkId: string, leaveKey: string): string {
  const bytes = Buffer.concat([Buffer.from(linkId, 'base64url'), Buffer.from(leaveKey, 'base64url')]);
  if (bytes.length !== 2 * KEY_BYTES) throw new Error('not a link id and a leave key');
  return bytes.toString('base64url');
}

export function parseLeaveToken(token: string): { linkHash: string; leaveKey: string } | undefined {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  return {
    linkHash: hashOfLinkId(bytes.subarray(0, KEY_BYTES).toString('base64url')),
    leaveKey: bytes.subarray(KEY_BYTES).toString('base64url'),
  };
}
