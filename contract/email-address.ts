// The one rule for a waitlist address (form, API, operator), its local part ASCII as `type="email"` and SES
// carry it; the key keeps plus tags and dots, the delivery key folds the spellings that reach one inbox.

import { decode } from 'punycode/punycode.es6.js';

export const EMAIL_MAX_OCTETS = 254;

export type EmailProblem = 'empty' | 'malformed';

// U+FFFD stands in for bytes that were not text: an address holding it was damaged on its way.
const UNTYPABLE = /[\s\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cs}\uFFFD]/u;
// Else the URL parser reads `%41` as `A`, `:80` as a port, `/x` as a path.
const DOMAIN_FORBIDDEN_ASCII = /[\x21-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const DIGITS_ONLY = /^[0-9]+$/;
const LOCAL_PART = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+$/;

// The Bidi rule (RFC 5893) as browsers and Node 24 apply it (Node 20 does not): a right-to-left label starts
// with such a letter, ends with one or a digit, holds no left-to-right one; other labels start with a letter.
const RTL =
  '\\p{sc=Hebr}\\p{sc=Arab}\\p{sc=Syrc}\\p{sc=Thaa}\\p{sc=Nkoo}\\p{sc=Samr}\\p{sc=Mand}\\p{sc=Adlm}\\p{sc=Rohg}\\p{sc=Yezi}';
const HAS_RTL = new RegExp(`[${RTL}]`, 'u');
const RTL_START = new RegExp(`^[${RTL}]`, 'u');
const LTR_LETTER = new RegExp(`[^\\P{L}${RTL}]`, 'u');
const RTL_END = new RegExp(`[${RTL}\\p{Nd}]\\p{M}*$`, 'u');

function bidiRuleHolds(asciiLabels: string[]): boolean {
  const labels = asciiLabels.map((label) => (label.startsWith('xn--') ? decode(label.slice(4)) : label));
  if (!labels.some((label) => HAS_RTL.test(label))) return true;
  return labels.every((label) =>
    HAS_RTL.test(label)
      ? RTL_START.test(label) && !LTR_LETTER.test(label) && RTL_END.test(label)
      : /^\p{L}/u.test(label),
  );
}

/** The domain's ASCII (IDNA) form as browsers make it; lower-cased first, as Node 20 lacks Unicode 15.1. */
function asciiHostname(domain: string): string | undefined {
  if (UNTYPABLE.test(domain) || DOMAIN_FORBIDDEN_ASCII.test(domain)) return undefined;
  try {
    return new URL(`http://${domain.toLowerCase()}/`).hostname;
  } catch {
    return undefined;
  }
}

/** An `xn--` label passes only where its Unicode label does, and spells it back exactly. */
function decodesToItself(label: string): boolean {
  try {
    const unicode = decode(label.slice(4));
    // In NFC (IDNA2008), and the hyphen rules hold for the Unicode label too (RFC 5891 4.2.3.1).
    return (
      unicode === unicode.normalize('NFC') && !/^-|-$|^..--/.test(unicode) && asciiHostname(unicode) === label
    );
  } catch {
    return false;
  }
}

/** `email` as entered, trimmed (what the person is written to as); `key` the waitlist table's key. */
export function checkEmail(
  raw: string,
): { ok: true; email: string; key: string } | { ok: false; problem: EmailProblem; key?: undefined } {
  const email = raw.trim();
  if (email === '') return { ok: false, problem: 'empty' };
  const malformed = { ok: false, problem: 'malformed' } as const;
  // Refused before any work; generous enough for 254 octets with every character escaped or decomposed.
  if (email.length > 1_024) return malformed;
  const text = email.normalize('NFC');
  const [localPart = '', domain, ...more] = text.split('@');
  if (UNTYPABLE.test(text) || domain === undefined || more.length > 0) return malformed;
  const hostname = asciiHostname(domain);
  if (!LOCAL_PART.test(localPart) || localPart.length > 64 || hostname === undefined) return malformed;
  const ascii = hostname.replace(/\.$/, '');
  const labels = ascii.split('.');
  const deliverable = labels.every(
    (label) =>
      label.length <= 63 && ASCII_LABEL.test(label) && (!label.startsWith('xn--') || decodesToItself(label)),
  );
  const key = `${localPart.toLowerCase()}@${ascii}`;
  // All ASCII by now: a character is an octet.
  const fits = ascii.length <= 253 && key.length <= EMAIL_MAX_OCTETS;
  return deliverable &&
    fits &&
    labels.length > 1 &&
    bidiRuleHolds(labels) &&
    !DIGITS_ONLY.test(labels.at(-1) ?? '')
    ? { ok: true, email, key }
    : malformed;
}

export const emailKey = (raw: string) => checkEmail(raw).key;

// SES's simulator, which `waitlist smoke` signs up: this key alone is held to no mail limit and in no funnel.
export const SMOKE_ADDRESS = 'success@simulator.amazonses.com';
export const isSmokeAddress = (key: string) => key === SMOKE_ADDRESS;

/** Never a record's identity. Only Gmail drops dots: `a.nn@example.nl` may be another person. */
export function deliveryKey(key: string): string {
  const at = key.lastIndexOf('@');
  const domain = key.slice(at + 1).toLowerCase();
  let local = key.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  // A local part that is only a tag (`+x@`) keeps it: there is no mailbox before it to fold into.
  if (plus > 0) local = local.slice(0, plus);
  const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
  return gmail ? `${local.replaceAll('.', '') || local}@gmail.com` : `${local}@${domain}`;
}
