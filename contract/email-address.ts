/**
 * The one rule for a waitlist address, used by the form, the API and the operator's tools, and the
 * identities of a mailbox: two ways of typing the same address give the same key (one record), and
 * spellings that reach the same inbox (a plus tag, Gmail's dots) give the same delivery key, by which
 * limits, suppression, `show`, `forget` and leaving treat them as one person.
 *
 * First the address is made canonical:
 * - surrounding whitespace is trimmed, and the text is put in Unicode NFC, so `bücher.de` typed with a
 *   combining accent is the same as `bücher.de` typed with a precomposed ü;
 * - the domain is turned into its ASCII (IDNA) form as browsers do (`bücher.de` is `xn--bcher-kva.de`,
 *   fullwidth letters and dots become ASCII), lower-cased, and one trailing dot (`example.com.`) dropped;
 * - the local part is lower-cased.
 * Plus tags and dots are kept: `ann+news@` and `a.nn@` are different mailboxes at most providers.
 *
 * Refused are what a person cannot see or type on purpose (zero-width characters, soft hyphens, word
 * joiners and every other default-ignorable code point, bidi controls, control characters, unpaired
 * surrogates, the replacement character) and what mail cannot be delivered to: a local part with anything
 * but ASCII letters, digits and ``!#$%&'*+/=?^_`{|}~.-`` (what a browser's `type="email"` takes, and all
 * that mail without SMTPUTF8, Amazon SES's included, can carry: `josé@` cannot be confirmed by mail), a
 * local part over 64 octets, a domain over 253, an empty label or one over 63, a label starting or ending
 * with `-`, a top-level label of digits only, and anything but letters, digits and hyphens in the domain's
 * ASCII form. What is left must have SPEC's shape: text, an at sign, text, a dot, text, no whitespace.
 *
 * No dependencies: the IDNA step is the platform's own URL parser (UTS 46, as the browser's address bar).
 */

/** RFC 5321: the longest address a mail path can carry, in octets of its ASCII-domain form. */
export const EMAIL_MAX_OCTETS = 254;
export const LOCAL_PART_MAX_OCTETS = 64;
export const DOMAIN_MAX_OCTETS = 253;
export const DOMAIN_LABEL_MAX_OCTETS = 63;

/**
 * Longer input is refused before any work is done on it. Generous: an address of 254 octets with every
 * character escaped or decomposed still fits.
 */
const INPUT_MAX_LENGTH = 1_024;

export type EmailProblem = 'empty' | 'malformed';

export type EmailCheck =
  | {
      ok: true;
      /** The address as entered, trimmed: what the person will be written to as. */
      email: string;
      /** The mailbox's canonical identity: the waitlist table's key. */
      key: string;
    }
  | { ok: false; problem: EmailProblem };

/**
 * Code points nobody types on purpose: default-ignorables (zero-width space and joiners, soft hyphen, word
 * joiner, variation selectors, BOM…), bidi controls (which make an address display reversed), controls,
 * unpaired surrogates, and U+FFFD, which stands in for bytes that were not text: an address holding it
 * was damaged on its way. Whitespace is refused by the shape.
 */
const UNTYPABLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cs}\uFFFD]/u;
const WHITESPACE = /\s/u;

/**
 * ASCII that may not appear in a domain before it is converted. The URL parser would otherwise read `%41`
 * as `A`, `:80` as a port and `/x` as a path; letters, digits, `-` and `.` pass, and non-ASCII goes on to
 * IDNA.
 */
// Controls and spaces are refused before this is asked.
const DOMAIN_FORBIDDEN_ASCII = /[\x21-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const DIGITS_ONLY = /^[0-9]+$/;

/** Before the at sign: the characters of the WHATWG valid e-mail address, all ASCII. */
const LOCAL_PART = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+$/;

/**
 * Whether an `xn--` label's rest is Punycode that decodes (RFC 3492, section 6.2): runtimes' URL parsers
 * disagree here (Node 20 refuses `xn--zz`, Node 24, the Lambda's, keeps it), so the rule decides itself.
 */
function decodesAsPunycode(encoded: string): boolean {
  const base = 36;
  const delimiter = encoded.lastIndexOf('-');
  let position = delimiter > 0 ? delimiter + 1 : 0;
  let decoded = delimiter > 0 ? delimiter : 0;
  let bias = 72;
  let n = 128;
  let i = 0;
  while (position < encoded.length) {
    const start = i;
    for (let w = 1, k = base; ; k += base) {
      if (position >= encoded.length) return false;
      const code = encoded.charCodeAt(position++);
      const digit = code - 48 < 10 ? code - 22 : code - 97 < 26 ? code - 97 : base;
      if (digit >= base) return false;
      i += digit * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= base - t;
      if (i > 0x10ffff * (decoded + 1)) return false;
    }
    decoded++;
    let delta = start === 0 && decoded === 1 ? Math.floor((i - start) / 700) : Math.floor((i - start) / 2);
    delta += Math.floor(delta / decoded);
    let k = 0;
    for (; delta > 455; k += base) delta = Math.floor(delta / 35);
    bias = k + Math.floor((36 * delta) / (delta + 38));
    n += Math.floor(i / decoded);
    i %= decoded;
    if (n > 0x10ffff) return false;
    i++;
  }
  return true;
}

/** The domain's ASCII form (IDNA, lower case, no trailing dot), or undefined when it cannot be one. */
function asciiDomain(domain: string): string | undefined {
  if (DOMAIN_FORBIDDEN_ASCII.test(domain)) return undefined;
  let hostname: string;
  try {
    // Lower-cased first: Unicode's tables changed for some capitals (ẞ became ß, not ss, in 15.1), and
    // Node 20's URL still has the old ones; in lower case every runtime here agrees.
    hostname = new URL(`http://${domain.toLowerCase()}/`).hostname;
  } catch {
    return undefined;
  }
  const ascii = hostname.replace(/\.$/, '');
  if (ascii.length > DOMAIN_MAX_OCTETS) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  const deliverable = labels.every(
    (label) =>
      label.length <= DOMAIN_LABEL_MAX_OCTETS &&
      ASCII_LABEL.test(label) &&
      (!label.startsWith('xn--') || decodesAsPunycode(label.slice(4))),
  );
  return deliverable && !DIGITS_ONLY.test(labels.at(-1) ?? '') ? ascii : undefined;
}

/** Checks an address as typed and gives its canonical key; see the module comment for the rule. */
export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, problem: 'empty' };
  const malformed = { ok: false, problem: 'malformed' } as const;
  if (email.length > INPUT_MAX_LENGTH) return malformed;

  const text = email.normalize('NFC');
  if (UNTYPABLE.test(text) || WHITESPACE.test(text)) return malformed;
  const parts = text.split('@');
  if (parts.length !== 2) return malformed;
  const [localPart = '', domain = ''] = parts;

  if (!LOCAL_PART.test(localPart) || localPart.length > LOCAL_PART_MAX_OCTETS) return malformed;
  const local = localPart.toLowerCase();
  const ascii = asciiDomain(domain);
  if (ascii === undefined) return malformed;

  const key = `${local}@${ascii}`;
  // All ASCII by now: a character is an octet.
  if (key.length > EMAIL_MAX_OCTETS) return malformed;
  return { ok: true, email, key };
}

/** The canonical key of an address, or undefined when the rule refuses it. */
export function emailKey(raw: string): string | undefined {
  const check = checkEmail(raw);
  return check.ok ? check.key : undefined;
}

/** Providers where dots in the local part are ignored, and the domains that are one mailbox service. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox a canonical key delivers to, for limiting mail only (never a record's identity): the plus
 * tag dropped (`ann+news@` is `ann@`), and at Gmail the dots too, with googlemail.com as gmail.com. Other
 * providers keep their dots: `a.nn@example.nl` may be another person than `ann@example.nl`.
 */
export function deliveryKey(key: string): string {
  const at = key.lastIndexOf('@');
  const domain = key.slice(at + 1).toLowerCase();
  let local = key.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  // A local part that is only a tag (`+x@`) keeps it: there is no mailbox before it to fold into.
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless === undefined) return `${local}@${domain}`;
  return `${local.replaceAll('.', '') || local}@${dotless}`;
}
