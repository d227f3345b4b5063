import { describe, expect, it } from 'vitest';
import { PENDING_DAYS } from '#contract/waitlist-table';
import {
  checkConfirmationToken,
  newConfirmationToken,
  newLinkId,
} from '../../../functions/confirm/confirmation-token';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const LINK_ID = newLinkId();

describe('confirmation tokens', () => {
  it('are 48 base64url characters: a time, the record’s link id and 128 random bits, different every time, and only of a link id', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newConfirmationToken(LINK_ID, NOW).token));

    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(() => newConfirmationToken('ann@example.nl', NOW)).toThrow('link id');
  });

  it(`work for ${PENDING_DAYS} days and then expire`, () => {
    const { token, hash, linkHash } = newConfirmationToken(LINK_ID, NOW);
    const checkedAfter = (ms: number) => checkConfirmationToken(token, new Date(NOW.getTime() + ms));

    expect(checkedAfter(PENDING_DAYS * DAY_MS)).toEqual({ ok: true, hash, linkHash });
    expect(checkedAfter(PENDING_DAYS * DAY_MS + 1000)).toEqual({
      ok: false,
      problem: 'expired',
      hash,
      linkHash,
    });
  });

  it.each([
    ['cut off', (token: string) => token.slice(0, -1)],
    ['one character longer', (token: string) => `${token}A`],
    ['with a character no token has', (token: string) => `${token.slice(0, -1)}=`],
    ['empty', () => ''],
    [
      'from the future (a forged time)',
      () => newConfirmationToken(LINK_ID, new Date(NOW.getTime() + DAY_MS)).token,
    ],
  ])('are invalid when %s', (_case, tamper) => {
    const tampered = tamper(newConfirmationToken(LINK_ID, NOW).token);
    expect(checkConfirmationToken(tampered, NOW)).toEqual({ ok: false, problem: 'invalid' });
  });
});
