import { describe, expect, it } from 'vitest';
import { PENDING_DAYS } from '#contract/waitlist-table';
import {
  checkConfirmationToken,
  hashOfToken,
  newConfirmationToken,
} from '../../../functions/confirm/confirmation-token';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('confirmation tokens', () => {
  it('are 27 base64url characters: a time and 128 random bits, different every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newConfirmationToken(NOW).token));

    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{27}$/);
  });

  it('are stored only as their SHA-256, which the check gives back for a valid token', () => {
    const { token, hash } = newConfirmationToken(NOW);

    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token);
    expect(hashOfToken(token)).toBe(hash);
    expect(checkConfirmationToken(token, NOW)).toEqual({ ok: true, hash });
  });

  it(`work for ${PENDING_DAYS} days and then expire`, () => {
    const { token, hash } = newConfirmationToken(NOW);

    expect(checkConfirmationToken(token, new Date(NOW.getTime() + PENDING_DAYS * DAY_MS))).toEqual({
      ok: true,
      hash,
    });
    expect(checkConfirmationToken(token, new Date(NOW.getTime() + PENDING_DAYS * DAY_MS + 1000))).toEqual({
      ok: false,
      problem: 'expired',
      hash,
    });
  });

  it.each([
    ['cut off', (token: string) => token.slice(0, -1)],
    ['one character longer', (token: string) => `${token}A`],
    ['with a character no token has', (token: string) => `${token.slice(0, -1)}=`],
    ['empty', () => ''],
    ['from the future (a forged time)', () => newConfirmationToken(new Date(NOW.getTime() + DAY_MS)).token],
  ])('are invalid when %s', (_case, tamper) => {
    expect(checkConfirmationToken(tamper(newConfirmationToken(NOW).token), NOW)).toEqual({
      ok: false,
      problem: 'invalid',
    });
  });

  it('give a changed token another hash, so it finds nothing', () => {
    const { token, hash } = newConfirmationToken(NOW);
    const changed = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;

    const check = checkConfirmationToken(changed, NOW);
    expect(check.ok && check.hash).not.toBe(hash);
  });
});
