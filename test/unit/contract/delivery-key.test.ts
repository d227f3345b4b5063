import { describe, expect, it } from 'vitest';
import { deliveryKey, emailKey } from '#contract/email-address';

describe('the delivery key that mail limits count by', () => {
  it.each([
    ['a plain address stays as it is', 'ann@example.nl', 'ann@example.nl'],
    ['a plus tag is dropped', 'ann+news@example.nl', 'ann@example.nl'],
    ['only the first plus starts the tag', 'ann+a+b@example.nl', 'ann@example.nl'],
    ['capitals are folded', 'Ann+X@Example.NL', 'ann@example.nl'],
    ['Gmail ignores dots', 'a.n.n@gmail.com', 'ann@gmail.com'],
    ['Gmail ignores dots and tags together', 'a.nn+1@gmail.com', 'ann@gmail.com'],
    ['googlemail.com is the same mailbox as gmail.com', 'a.nn+x@googlemail.com', 'ann@gmail.com'],
    ['other providers keep their dots', 'a.nn@outlook.com', 'a.nn@outlook.com'],
    ['a subdomain of gmail.com is not Gmail', 'a.nn@mail.gmail.com', 'a.nn@mail.gmail.com'],
    ['a local part that is only a tag keeps it', '+tag@example.nl', '+tag@example.nl'],
    ['a Gmail local part of dots only keeps them', '..@gmail.com', '..@gmail.com'],
  ])('%s: %s → %s', (_case, typed, expected) => {
    expect(deliveryKey(emailKey(typed) ?? typed)).toBe(expected);
  });

  it('gives 500 spellings of one Gmail mailbox one key', () => {
    const spellings = Array.from({ length: 500 }, (_, index) => {
      const dotted = 'victim'
        .split('')
        .map((char, at) => (index & (1 << at) ? `${char}.` : char))
        .join('')
        .replace(/\.$/, '');
      return `${dotted}+${index}@${index % 2 ? 'gmail.com' : 'GoogleMail.com'}`;
    });

    expect(new Set(spellings.map((typed) => deliveryKey(emailKey(typed) ?? typed)))).toEqual(
      new Set(['victim@gmail.com']),
    );
  });
});
