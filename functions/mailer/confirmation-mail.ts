import { randomUUID } from 'node:crypto';
import { checkEmail } from '#contract/email-address';
import type { Locale } from '#contract/locales';

export interface ConfirmationMailInput {
  /** The address as the person typed it (an ASCII local part; the domain may be Unicode). */
  to: string;
  language: Locale;
  /** Absolute URL of the confirmation page, with the token in it; never contains the address. */
  confirmUrl: string;
  /** The sender, e.g. 'hallo@mandje.nl'; the brand is its display name. */
  from: string;
  contactEmail: string;
  brandName: string;
  /** How long the link is valid and a pending signup is kept. */
  validDays: number;
  /** For a deterministic Date and Message-ID header in tests. */
  now?: Date;
  /** Without angle brackets; default: a random id at the sender's domain. */
  messageId?: string;
}

export interface ConfirmationMail {
  subject: string;
  /** Plain text with CRLF line breaks, as it travels in the message. */
  text: string;
  /** HTML with CRLF line breaks, as it travels in the message. */
  html: string;
  /** The whole RFC 5322 message with MIME parts, for SES's raw content or an .eml file. */
  raw: string;
}

const dagen = (days: number) => `${days} ${days === 1 ? 'dag' : 'dagen'}`;
const nl = {
  subject: (brand: string) => `Bevestig je aanmelding voor de wachtlijst van ${brand}`,
  greeting: 'Hoi,',
  signedUp: (brand: string) =>
    `Iemand (hopelijk jij) heeft zich met dit e-mailadres aangemeld voor de wachtlijst van ${brand}.`,
  confirmByLink: 'Was jij dat? Bevestig dan je aanmelding via deze link:',
  confirmByButton: 'Was jij dat? Bevestig dan je aanmelding met de knop hieronder.',
  button: 'Bevestig mijn aanmelding',
  buttonFallback: 'Werkt de knop niet? Kopieer dan deze link en plak hem in je browser:',
  validity: (days: number) => `De link is ${dagen(days)} geldig.`,
  ignore: (days: number) =>
    'Heb je je niet aangemeld, of wil je toch niet op de wachtlijst? Negeer deze mail dan gewoon. ' +
    `We sturen je verder niets en verwijderen je e-mailadres na ${dagen(days)}.`,
  questions: (contact: string) => `Vragen? Mail gerust naar ${contact}.`,
  signOff: 'Groeten,',
  team: (brand: string) => `Het ${brand}-team`,
};

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
// Typed by the Dutch copy, so a sentence missing in English fails the type check.
const en: typeof nl = {
  subject: (brand) => `Confirm your signup for the ${brand} waitlist`,
  greeting: 'Hello,',
  signedUp: (brand) => `Someone (hopefully you) used this email address to join the ${brand} waitlist.`,
  confirmByLink: 'If that was you, please confirm your signup with this link:',
  confirmByButton: 'If that was you, please confirm your signup with the button below.',
  button: 'Confirm my signup',
  buttonFallback: 'Button not working? Copy this link into your browser:',
  validity: (count) => `The link works for ${days(count)}.`,
  ignore: (count) =>
    'Didn’t sign up, or changed your mind? Then just ignore this email. ' +
    `We won’t send you anything else, and we’ll delete your address after ${days(count)}.`,
  questions: (contact) => `Questions? Email us at ${contact}.`,
  signOff: 'Best wishes,',
  team: (brand) => `The ${brand} team`,
};

const COPY = { nl, en } satisfies Record<Locale, typeof nl>;

const CRLF = '\r\n';
/** RFC 5322's limit for any line of a message, CRLF not counted. */
const MAX_LINE = 998;
/** Green 15803d on white is 5.0:1, above WCAG AA's 4.5:1 for the button's text. */
const BRAND_GREEN = '#15803d';

// RFC 5322 atext (ASCII: the waitlist rule takes nothing else before the at sign).
const ATEXT = "[\\w!#$%&'*+/=?^`{|}~-]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const ASCII_PHRASE = /^[\w!#$%&'*+/=?^`{|}~-]+(?: [\w!#$%&'*+/=?^`{|}~-]+)*$/;
/** Visible ASCII but `<`, `>` and `@`, on either side of one `@`. */
const MESSAGE_ID = /^[\x21-\x3b\x3d\x3f\x41-\x7e]+@[\x21-\x3b\x3d\x3f\x41-\x7e]+$/;
// A CR or LF would let an input write headers of its own; no control character belongs in any input.
const CONTROL = /\p{Cc}/u;

/**
 * The address to deliver to: the local part as typed, the domain in its ASCII (IDNA) form, as
 * #contract/email-address computes it for the waitlist key (`Ann@bücher.de` is `Ann@xn--bcher-kva.de`).
 * The rule keeps the local part ASCII, so the address needs no SMTPUTF8; one that is not a dot-atom
 * (`a..b`) is quoted, so it stays one mailbox in a header. Throws for an address the rule refuses.
 */
export function mailboxAddress(typed: string): string {
  const check = checkEmail(typed);
  if (!check.ok) throw new Error('Not a deliverable email address');
  const local = check.email.slice(0, check.email.lastIndexOf('@'));
  const domain = check.key.slice(check.key.lastIndexOf('@') + 1);
  const quoted = DOT_ATOM.test(local) ? local : `"${local.replace(/["\\]/g, '\\$&')}"`;
  return `${quoted}@${domain}`;
}

export function confirmationMail(input: ConfirmationMailInput): ConfirmationMail {
  for (const [field, value] of Object.entries(input)) {
    // The field's name only: its value may be a person's address, and errors get logged.
    if (typeof value === 'string' && CONTROL.test(value))
      throw new Error(`${field} holds a control character`);
  }
  const { language, brandName, contactEmail, validDays, now = new Date() } = input;
  if (!Number.isInteger(validDays) || validDays < 1)
    throw new Error('validDays must be a whole number of days');
  if (Number.isNaN(now.getTime())) throw new Error('now is not a valid date');
  const url = confirmationUrl(input.confirmUrl);
  const to = mailboxAddress(input.to);
  const from = mailboxAddress(input.from);
  const messageId = input.messageId ?? `${randomUUID()}@${from.slice(from.lastIndexOf('@') + 1)}`;
  if (!MESSAGE_ID.test(messageId)) throw new Error('messageId must be id@domain in visible ASCII');

  const copy = COPY[language];
  const subject = copy.subject(brandName);
  const text = [
    copy.greeting,
    '',
    `${copy.signedUp(brandName)} ${copy.confirmByLink}`,
    '',
    url,
    '',
    copy.validity(validDays),
    '',
    copy.ignore(validDays),
    '',
    copy.questions(contactEmail),
    '',
    copy.signOff,
    copy.team(brandName),
    '',
  ].join(CRLF);

  const e = escapeHtml;
  const paragraph = (content: string, style = '') => `<p style="margin:0 0 16px${style}">${e(content)}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${e(language)}" dir="ltr">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(subject)}</title>`,
    '</head>',
    '<body style="margin:0;padding:0;background-color:#ffffff;color:#1f2937;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    // The brand as a word, not an image: mail clients block images until asked, and text always shows.
    `<p style="margin:0 0 24px;font-size:24px;font-weight:bold;color:${BRAND_GREEN}">${e(brandName)}</p>`,
    paragraph(copy.greeting),
    paragraph(`${copy.signedUp(brandName)} ${copy.confirmByButton}`),
    // A table cell carries the colour in Outlook for Windows, which ignores padding on links.
    '<table role="presentation" border="0" cellpadding="0" cellspacing="0" style="margin:0 0 24px"><tr>',
    `<td bgcolor="${BRAND_GREEN}" style="border-radius:6px;background-color:${BRAND_GREEN}">`,
    `<a href="${e(url)}" style="display:inline-block;padding:12px 24px;border-radius:6px;background-color:${BRAND_GREEN};color:#ffffff;font-weight:bold;text-decoration:none">${e(copy.button)}</a>`,
    '</td>',
    '</tr></table>',
    paragraph(copy.buttonFallback),
    paragraph(url, ';word-break:break-all'),
    paragraph(copy.validity(validDays)),
    paragraph(copy.ignore(validDays)),
    paragraph(copy.questions(contactEmail)),
    `<p style="margin:0">${e(copy.signOff)}<br>${e(copy.team(brandName))}</p>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join(CRLF);

  // Both parts are base64, whose alphabet has no '-': none of their lines can start a delimiter ('--').
  const boundary = '=_mandje-alternative_=';
  const headers = [
    `From: ${headerPhrase(brandName)} <${from}>`,
    `To: ${to}`,
    `Subject: ${subjectText(subject)}`,
    `Date: ${now.toUTCString().replace(/GMT$/, '+0000')}`,
    `Message-ID: <${messageId}>`,
    // Sent by a machine on a visitor's request: out-of-office replies and other robots keep quiet (RFC 3834),
    // and a person's reply reaches the contact address rather than the sender's.
    'Auto-Submitted: auto-generated',
    `Reply-To: ${mailboxAddress(contactEmail)}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ].join(CRLF);
  if (headers.split(CRLF).some((line) => line.length > MAX_LINE))
    throw new Error('A header line is too long');

  const part = (type: string, content: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(content),
    ].join(CRLF);
  const raw = [headers, '', part('text/plain', text), part('text/html', html), `--${boundary}--`, ''].join(
    CRLF,
  );

  return { subject, text, html, raw };
}

function confirmationUrl(typed: string): string {
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new Error('confirmUrl is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('confirmUrl must be http(s)');
  // The parser's form: spaces and quotes percent-encoded, so the written-out URL is one clickable word.
  return url.href;
}

function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  };
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

function base64Lines(text: string): string {
  return (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join(CRLF);
}

/** A display name: as it is when it is plain ASCII words, otherwise encoded words. */
function headerPhrase(text: string): string {
  return ASCII_PHRASE.test(text) ? text : encodedWords(text);
}

/**
 * The subject: as it is when it is printable ASCII that fits one line of 78, otherwise RFC 2047 encoded
 * words, one per folded line.
 */
function subjectText(text: string): string {
  const plain = /^[\x20-\x7e]*$/.test(text) && !text.includes('=?') && 'Subject: '.length + text.length <= 78;
  return plain ? text : encodedWords(text);
}

/**
 * UTF-8 base64 encoded words, each of whole characters (RFC 2047 forbids splitting one), each at most 39
 * bytes so that a word (64 characters) and a header's name stay within RFC 2047's 76 per line.
 */
function encodedWords(text: string): string {
  const chunks: string[] = [''];
  for (const char of text) {
    const last = chunks.length - 1;
    if (Buffer.byteLength((chunks[last] ?? '') + char) > 39) chunks.push(char);
    else chunks[last] += char;
  }
  return chunks
    .map((chunk) => `=?UTF-8?B?${Buffer.from(chunk, 'utf8').toString('base64')}?=`)
    .join(`${CRLF} `);
}
