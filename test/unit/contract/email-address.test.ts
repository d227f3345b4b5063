import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { decode, encode } from 'punycode/punycode.es6.js';
import { describe, expect, it } from 'vitest';
import { checkEmail, deliveryKey, emailKey } from '#contract/email-address';

describe('checkEmail', () => {
  it.each(['', '   ', '\t\n'])('calls %j empty', (raw) => {
    expect(checkEmail(raw)).toEqual({ ok: false, problem: 'empty' });
  });

  it('trims an address, and keeps it as entered beside its key', () => {
    expect(checkEmail('  Ann@Example.nl ')).toEqual({
      ok: true,
      email: 'Ann@Example.nl',
      key: 'ann@example.nl',
    });
  });

  describe('gives every way of typing one mailbox the same key', () => {
    it.each([
      ['case', 'ANN@EXAMPLE.NL', 'ann@example.nl'],
      ['dots, a plus tag and a subdomain, kept', 'a.b+c@mail.example.co.uk', 'a.b+c@mail.example.co.uk'],
      ['surrounding whitespace', ' \tann@example.nl\n', 'ann@example.nl'],
      ['NFD (a combining accent) in the domain', 'ann@bu\u0308cher.de', 'ann@xn--bcher-kva.de'],
      ['a Unicode domain', 'ann@bücher.de', 'ann@xn--bcher-kva.de'],
      ['the same domain in punycode', 'ann@xn--bcher-kva.de', 'ann@xn--bcher-kva.de'],
      ['a capital in a Unicode domain', 'ann@BÜCHER.de', 'ann@xn--bcher-kva.de'],
      ['a trailing dot', 'ann@example.com.', 'ann@example.com'],
      ['fullwidth letters and dot in the domain', 'ann@ｅｘａｍｐｌｅ．ｃｏｍ', 'ann@example.com'],
      [
        'every character a browser takes before the at sign',
        "A1.!#$%&'*+/=?^_`{|}~-@x.nl",
        "a1.!#$%&'*+/=?^_`{|}~-@x.nl",
      ],
      ['a capital sharp s in the domain, in any runtime’s tables', 'ann@FAẞ.de', 'ann@xn--fa-hia.de'],
      ['a sharp s in the domain', 'ann@faß.de', 'ann@xn--fa-hia.de'],
    ])('%s', (_case, typed, key) => {
      expect(checkEmail(typed)).toMatchObject({ ok: true, key });
      expect(emailKey(typed)).toBe(key);
    });
  });

  describe('keeps apart what are different mailboxes', () => {
    it.each([
      ['a plus tag', 'ann+news@example.nl', 'ann@example.nl'],
      ['a dot in the local part', 'a.nn@example.nl', 'ann@example.nl'],
      ['another domain', 'ann@example.com', 'ann@example.nl'],
    ])('%s', (_case, one, other) => {
      expect(emailKey(one)).toBeDefined();
      expect(emailKey(other)).toBeDefined();
      expect(emailKey(one)).not.toBe(emailKey(other));
    });
  });

  describe('refuses what a person cannot see or type on purpose', () => {
    it.each([
      ['a zero-width space', 'zw@x.nl\u200b'],
      ['a soft hyphen', 'ann@exam\u00adple.nl'],
      ['a right-to-left override', 'a\u202e@x.nl'],
      ['a NUL', 'ann\u0000@example.nl'],
      ['a C1 control', 'ann\u0085@example.nl'],
      ['an unpaired surrogate', 'ann\ud800@example.nl'],
      ['the replacement character (bytes damaged on the way)', 'ann\ufffd@example.nl'],
    ])('%s', (_case, typed) => {
      expect(checkEmail(typed)).toEqual({ ok: false, problem: 'malformed' });
    });
  });

  describe('refuses what mail cannot be delivered to', () => {
    it.each([
      ['no at sign', 'name'],
      ['nothing after the at sign', 'name@'],
      ['nothing before it', '@example.com'],
      ['no dot in the domain', 'name@example'],
      ['only dots', 'a@...'],
      ['an empty label', 'ann@x..nl'],
      ['a leading dot', 'ann@.x.nl'],
      ['two trailing dots', 'ann@x.nl..'],
      ['a space inside', 'na me@example.com'],
      ['two at signs', 'name@@example.com'],
      ['a label that starts with a hyphen', 'ann@-x.nl'],
      ['a label that ends with a hyphen', 'ann@x-.nl'],
      ['a top-level label of digits', 'ann@1.2.3.4'],
      ['a hexadecimal IPv4 address', 'ann@0x7f.1'],
      ['an underscore in the domain', 'ann@a_b.nl'],
      ['a percent escape in the domain', 'ann@ex%41mple.com'],
      ['a port', 'ann@x.nl:80'],
      ['a path', 'ann@x.nl/a'],
      ['an IP literal', 'ann@[127.0.0.1]'],
      ['a local part of 65 octets', `${'a'.repeat(65)}@x.nl`],
      // Mail without SMTPUTF8 (Amazon SES's) cannot carry it, and a browser's type="email" refuses it.
      ['a letter with an accent in the local part', 'josé@x.nl'],
      ['a fullwidth letter in the local part', 'ａnn@example.nl'],
      ['a quoted local part', '"ann"@x.nl'],
      ['a label of 64 octets', `ann@${'a'.repeat(64)}.nl`],
      ['a domain of 254 octets', `ann@${`${'a'.repeat(62)}.`.repeat(4)}nl`],
      [
        'an address over 254 octets',
        `${'a'.repeat(64)}@${`${'a'.repeat(60)}.`.repeat(3)}${'a'.repeat(10)}.nl`,
      ],
      ['Punycode that does not decode', 'ann@xn--zz.nl'],
      ['a hyphen read as a Punycode digit', 'd@xn---zz.nl'],
      ['Punycode of a C1 control', 'c1@xn--a.nl'],
      ['Punycode of a zero-width joiner', 'zwj@xn--1ug.nl'],
      ['Punycode of a capital', 'ann@xn--bcher-2pa.de'],
      ['Punycode of a label that is plain ASCII', 'ann@xn--abc-.nl'],
      ['a Unicode label that starts with a hyphen', 'a@-ü.nl'],
      ['a Unicode label that ends with a hyphen', 'a@ü-.nl'],
      ['Punycode of a label that starts with a hyphen', 'a@xn----eha.nl'],
      ['a Unicode label with hyphens in its third and fourth places', 'a@ab--ü.nl'],
      ['a label mixing a right-to-left letter with a left-to-right one (the Bidi rule)', 'a@aم.nl'],
      ['a right-to-left label that starts with a digit', 'a@1א.nl'],
      ['Punycode of a label not in NFC, whose NFC form is another label', 'ann@xn--erfve.nl'],
    ])('%s', (_case, typed) => {
      expect(checkEmail(typed)).toEqual({ ok: false, problem: 'malformed' });
    });

    it('accepts the longest parts mail allows: a 64-octet local part and 63-octet labels', () => {
      expect(checkEmail(`${'a'.repeat(64)}@x.nl`).ok).toBe(true);
      expect(checkEmail(`ann@${'a'.repeat(63)}.nl`).ok).toBe(true);
    });
  });

  describe('gives a domain and its Punycode spelling the same answer', () => {
    // Canonical letters of several scripts, and what a label may not hold or must be mapped first.
    const character = fc.constantFrom(
      ...'abz09-üéßςαжд中😀',
      ...['\u200d', '\u200c', '\u0080', '\u00ad', '\u0301', 'Ü', 'ａ', '\u3002', '\ufffd', 'م', 'א'],
    );
    const label = fc.string({ unit: character, minLength: 1, maxLength: 8 });

    it('a Unicode label: its Punycode spelling passes only if that is the very label the rule makes of it', () => {
      fc.assert(
        fc.property(label, (unicode) => {
          const spelled = `ann@xn--${encode(unicode)}.nl`;
          const asTyped = checkEmail(`ann@${unicode}.nl`);
          const canonical = asTyped.ok && asTyped.key === spelled;
          expect(checkEmail(spelled).ok, spelled).toBe(canonical);
        }),
        { numRuns: 2_000 },
      );
    });

    it('a Punycode label: one the rule takes decodes to a Unicode label it takes, under the same key', () => {
      const basic = fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'),
        maxLength: 8,
      });
      fc.assert(
        fc.property(basic, (encoded) => {
          const spelled = checkEmail(`ann@xn--${encoded}.nl`);
          fc.pre(spelled.ok);
          expect(checkEmail(`ann@${decode(encoded)}.nl`).key).toBe(spelled.key);
        }),
        { numRuns: 2_000 },
      );
    });

    it('on the machine’s Node as on the Lambda’s (this tier’s): both spellings of 1,000 labels alike', () => {
      // This tier runs on Node 24; the first `node` on the PATH outside node_modules is the machine's (20 in CI).
      const machineNode = (process.env.PATH ?? '')
        .split(delimiter)
        .filter((folder) => folder !== '' && !folder.includes('node_modules'))
        .map((folder) => join(folder, 'node'))
        .find((path) => existsSync(path));
      expect(machineNode).toBeDefined();
      const addresses = fc
        .sample(label, 1_000)
        .flatMap((unicode) => [`ann@${unicode}.nl`, `ann@xn--${encode(unicode)}.nl`]);
      const rule = pathToFileURL(resolve(import.meta.dirname, '../../../contract/email-address.ts')).href;
      const there = spawnSync(
        machineNode as string,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `
          const { checkEmail } = await import(${JSON.stringify(rule)});
          const addresses = JSON.parse((await import('node:fs')).readFileSync(0, 'utf8'));
          process.stdout.write(JSON.stringify(addresses.map((address) => checkEmail(address).key ?? null)));`,
        ],
        { input: JSON.stringify(addresses), encoding: 'utf8' },
      );
      expect(there.stderr).toBe('');
      expect(JSON.parse(there.stdout)).toEqual(addresses.map((address) => checkEmail(address).key ?? null));
    });
  });
});

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
});
