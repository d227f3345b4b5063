import { randomBytes } from 'node:crypto';
import { hashOfLinkId, newLinkId } from '../confirm/confirmation-token';

// The record's link id and leave key (16 bytes each), base64url: the same in every mail to the person,
// working as long as the record exists; 128 random bits nobody can guess.
export const newLeaveKey = () => randomBytes(16).toString('base64url');

export const newLinkKeys = () => ({ linkId: newLinkId(), leaveKey: newLeaveKey() });

export function leaveToken(linkId: string, leaveKey: string): string {
  const bytes = Buffer.concat([Buffer.from(linkId, 'base64url'), Buffer.from(leaveKey, 'base64url')]);
  if (bytes.length !== 32) throw new Error('not a link id and a leave key');
  return bytes.toString('base64url');
}

export function parseLeaveToken(token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  return {
    linkHash: hashOfLinkId(bytes.subarray(0, 16).toString('base64url')),
    leaveKey: bytes.subarray(16).toString('base64url'),
  };
}
