import { randomUUID } from 'node:crypto';
import { checkEmail } from '#contract/email-address';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import type { Locale } from '#contract/locales';
import type { MailSettings } from './mail-transport';

export interface MailEnvelope extends Pick<MailSettings, 'mailFrom' | 'contactEmail' | 'brandName'> {
  /** As the person typed it (an ASCII local part; the domain may be Unicode). */
  to: string;
  language: Locale;
  now?: Date;
  /** Without angle brackets; default: a random id at the sender's domain. */
  messageId?: string;
}

export type Inline = string | { text: string; href: string };

export const CRLF = '\r\n';

const sharedNl = {
  greeting: 'Hoi,',
  buttonFallback: 'Werkt de knop niet? Kopieer dan deze link en plak hem in je browser:',
  questions: (contact: string) => `Vragen? Mail gerust naar ${contact}.`,
  signOff: (brand: string) => ['Groeten,', `Het ${brand}-team`],
};
const sharedEn: typeof sharedNl = {
  greeting: 'Hello,',
  buttonFallback: 'Button not working? Copy this link into your browser:',
  questions: (contact) => `Questions? Email us at ${contact}.`,
  signOff: (brand) => ['Best wishes,', `The ${brand} team`],
};
export const SHARED_COPY = { nl: sharedNl, en: sharedEn } satisfies Record<Locale, typeof sharedNl>;
/** Green 15803d on white is 5.0:1, above WCAG AA's 4.5:1 for the button's text. */
const BRAND_GREEN = '#15803d';

// RFC 5322 atext (ASCII: the waitlist rule takes nothing else before the at sign).
const ATEXT = "[\\w!#$%&'*+/=?^`{|}~-]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const ASCII_PHRASE = new RegExp(`^${ATEXT}+(?: ${ATEXT}+)*$`);
/** Visible ASCII but `<`, `>` and `@`, on either side of one `@`. */
const MESSAGE_ID = /^[\x21-\x3b\x3d\x3f\x41-\x7e]+@[\x21-\x3b\x3d\x3f\x41-\x7e]+$/;
// A CR or LF would let an input write headers of its own; no control character belongs in any input.
const CONTROL = /\p{Cc}/u;

// The local part as typed (ASCII, so no SMTPUTF8; quoted when not a dot-atom), the domain in its IDNA form.
export function mailboxAddress(typed: string): string {
  const check = checkEmail(typed);
  if (!check.ok) throw new Error('Not a deliverable email address');
  const local = check.email.slice(0, check.email.lastIndexOf('@'));
  const domain = check.key.slice(check.key.lastIndexOf('@') + 1);
  const quoted = DOT_ATOM.test(local) ? local : `"${local.replace(/["\\]/g, '\\$&')}"`;
  return `${quoted}@${domain}`;
}

export const senderDomain = (from: string) => mailboxAddress(from).replace(/^.*@/, '');

/** An absolute http(s) URL in the parser's form: spaces and quotes percent-encoded, one clickable word. */
export function absoluteUrl(typed: string, field: string): string {
  if (!URL.canParse(typed)) throw new Error(`${field} is not an absolute URL`);
  const url = new URL(typed);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${field} must be http(s)`);
  return url.href;
}

const ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&${ENTITIES[char]};`);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The look's pieces, each one HTML line, every value escaped; a URL breaks anywhere, to fit a phone. */
export const htmlBlock = {
  paragraph(content: readonly Inline[] | string, style = ''): string {
    const parts = typeof content === 'string' ? [content] : content;
    const inner = parts
      .map((part) =>
        typeof part === 'string'
          ? escapeHtml(part)
          : `<a href="${escapeHtml(part.href)}" style="color:${BRAND_GREEN};text-decoration:underline${part.text === part.href ? ';word-break:break-all' : ''}">${escapeHtml(part.text)}</a>`,
      )
      .join('');
    return `<p style="margin:0 0 16px${style}">${inner}</p>`;
  },
  /** A table cell carries the colour in Outlook for Windows; below it, the URL for when the button fails. */
  button: (label: string, url: string, fallback: string) =>
    [
      '<table role="presentation" border="0" cellpadding="0" cellspacing="0" style="margin:0 0 24px"><tr>',
      `<td bgcolor="${BRAND_GREEN}" style="border-radius:9999px;background-color:${BRAND_GREEN}">`,
      `<a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 24px;border-radius:9999px;background-color:${BRAND_GREEN};color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(label)}</a>`,
      '</td>',
      '</tr></table>',
      htmlBlock.paragraph(fallback),
      htmlBlock.paragraph(url, ';word-break:break-all'),
    ].join(CRLF),
  signOff: (lines: readonly string[]) => `<p style="margin:0">${lines.map(escapeHtml).join('<br>')}</p>`,
  footer: (paragraphs: readonly (readonly Inline[])[]) =>
    [
      '<hr style="border:0;border-top:1px solid #e5e7eb;margin:24px 0 16px">',
      ...paragraphs.map((content) => htmlBlock.paragraph(content, ';font-size:14px;color:#4b5563')),
    ].join(CRLF),
};

/** Text and HTML with CRLF line breaks, as they travel; `raw`: the RFC 5322 message, for SES or an .eml file. */
export type ComposedMail = ReturnType<typeof composeMail>;

/** `preheader`: the line an inbox shows after the subject. `leaveUrl`: RFC 8058's one-click headers. */
export function composeMail(
  envelope: MailEnvelope,
  content: { subject: string; preheader?: string; text: string[]; html: string[]; leaveUrl?: string },
) {
  // Names the field only: values may be addresses.
  for (const [field, value] of [...Object.entries(envelope), ...Object.entries(content)])
    if (typeof value === 'string' && CONTROL.test(value))
      throw new Error(`${field} holds a control character`);
  const { language, brandName, contactEmail, now = new Date() } = envelope;
  const to = mailboxAddress(envelope.to);
  const from = mailboxAddress(envelope.mailFrom);
  const messageId = envelope.messageId ?? `${randomUUID()}@${senderDomain(envelope.mailFrom)}`;
  if (!MESSAGE_ID.test(messageId)) throw new Error('messageId must be id@domain in visible ASCII');

  const { subject, leaveUrl } = content;
  const text = [...content.text, ''].join(`${CRLF}${CRLF}`).replace(/(\r\n)+$/, CRLF);
  const e = escapeHtml;
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
    ...(content.preheader
      ? [`<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${e(content.preheader)}</div>`]
      : []),
    // The brand as a word, not an image: mail clients block images until asked, and text always shows.
    `<p style="margin:0 0 24px;font-size:24px;font-weight:bold;color:${BRAND_GREEN}">${e(brandName)}</p>`,
    ...content.html,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join(CRLF);

  // Both parts are base64, whose alphabet has no '-': none of their lines can start a delimiter ('--').
  const boundary = '=_mandje-alternative_=';
  const headers = [
    `From: ${ASCII_PHRASE.test(brandName) ? brandName : encodedWords(brandName)} <${from}>`,
    `To: ${to}`,
    // As it is when it is printable ASCII that fits one line of 78.
    `Subject: ${/^[\x20-\x7e]{0,69}$/.test(subject) && !subject.includes('=?') ? subject : encodedWords(subject)}`,
    `Date: ${now.toUTCString().replace(/GMT$/, '+0000')}`,
    `Message-ID: <${messageId}>`,
    // Sent by a machine: robots keep quiet (RFC 3834), and a person's reply reaches the contact address.
    'Auto-Submitted: auto-generated',
    `Reply-To: ${mailboxAddress(contactEmail)}`,
    ...(leaveUrl
      ? [`List-Unsubscribe: <${leaveUrl}>`, `List-Unsubscribe-Post: ${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`]
      : []),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ].join(CRLF);

  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: base64',
      '',
      base64(body).replace(/.{76}(?!$)/g, `$&${CRLF}`),
    ].join(CRLF);
  const raw = [headers, '', part('text/plain', text), part('text/html', html), `--${boundary}--`, ''];
  return { subject, text, html, raw: raw.join(CRLF) };
}

/** RFC 2047 words of whole characters, at most 39 bytes each, so a line stays within 76 characters. */
function encodedWords(text: string): string {
  const chunks: string[] = [''];
  for (const char of text) {
    const last = chunks.length - 1;
    if (Buffer.byteLength((chunks[last] ?? '') + char) > 39) chunks.push(char);
    else chunks[last] += char;
  }
  return chunks.map((chunk) => `=?UTF-8?B?${base64(chunk)}?=`).join(`${CRLF} `);
}
