// The one rule for a waitlist address (form, API, operator) and a mailbox's identities. The local part is
// ASCII: a browser's `type="email"` and non-SMTPUTF8 mail (SES's included) carry no more. The key keeps plus
// tags and dots; the delivery key folds spellings that reach one inbox: limits, suppression, `show`,
// `forget` and leaving key on it.

export const EMAIL_MAX_OCTETS = 254;

export type EmailProblem = 'empty' | 'malformed';

// U+FFFD stands in for bytes that were not text: an address holding it was damaged on its way.
const UNTYPABLE = /[\s\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cs}\uFFFD]/u;
// Else the URL parser reads `%41` as `A`, `:80` as a port, `/x` as a path.
const DOMAIN_FORBIDDEN_ASCII = /[\x21-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const DIGITS_ONLY = /^[0-9]+$/;
const LOCAL_PART = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+$/;

// Whether an `xn--` label's rest is Punycode that decodes (RFC 3492, 6.2): runtimes' URL parsers disagree
// here (Node 20 refuses `xn--zz`, Node 24 keeps it), so the rule decides itself.
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
  if (!LOCAL_PART.test(localPart) || localPart.length > 64 || DOMAIN_FORBIDDEN_ASCII.test(domain))
    return malformed;
  let hostname: string;
  try {
    // Lower-cased first: Unicode 15.1 changed some capitals (ẞ), Node 20's URL has the old tables.
    hostname = new URL(`http://${domain.toLowerCase()}/`).hostname;
  } catch {
    return malformed;
  }
  const ascii = hostname.replace(/\.$/, '');
  const labels = ascii.split('.');
  const deliverable = labels.every(
    (label) =>
      label.length <= 63 &&
      ASCII_LABEL.test(label) &&
      (!label.startsWith('xn--') || decodesAsPunycode(label.slice(4))),
  );
  const key = `${localPart.toLowerCase()}@${ascii}`;
  // All ASCII by now: a character is an octet.
  const fits = ascii.length <= 253 && key.length <= EMAIL_MAX_OCTETS;
  return deliverable && fits && labels.length > 1 && !DIGITS_ONLY.test(labels.at(-1) ?? '')
    ? { ok: true, email, key }
    : malformed;
}

export const emailKey = (raw: string) => checkEmail(raw).key;

/** SES's mailbox simulator: it reaches no inbox, so no mail limit applies and no funnel counts it. */
export const MAILBOX_SIMULATOR_DOMAIN = 'simulator.amazonses.com';
export const isMailboxSimulator = (key: string) => key.toLowerCase().endsWith(`@${MAILBOX_SIMULATOR_DOMAIN}`);

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
