import { describe, expect, it } from 'vitest';
import { checkEmail } from '#contract/email-address';

describe('checkEmail', () => {
  it.each(['', '   ', '\t\n'])('calls %j empty', (raw) => {
    expect(checkEmail(raw)).toEqual({ ok: false, problem: 'empty' });
  });

  it.each([
    'name',
    'name@',
    '@example.com',
    'name@example',
    'name@example.',
    'na me@example.com',
    'name@exa mple.com',
    'name@@example.com',
    `${'a'.repeat(250)}@x.nl`,
  ])('calls %j malformed', (raw) => {
    expect(checkEmail(raw)).toEqual({ ok: false, problem: 'malformed' });
  });

  it('accepts text, an at sign, text, a dot and text, and trims it', () => {
    expect(checkEmail('  ann@example.nl ')).toEqual({ ok: true, email: 'ann@example.nl' });
    expect(checkEmail('a.b+c@mail.example.co.uk')).toEqual({ ok: true, email: 'a.b+c@mail.example.co.uk' });
  });
});
