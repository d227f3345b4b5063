import { randomUUID } from 'node:crypto';
import { checkEmail } from '#contract/email-address';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import type { Locale } from '#contract/locales';
import type { AnnouncementText, Inline } from '../announce/announcement-text';
import type { MailSettings } from './mail-transport';

// The three mails: their words in each language, their HTML and the RFC 5322 message SES sends as it is.

interface MailEnvelope extends Pick<MailSettings, 'mailFrom' | 'contactEmail' | 'brandName'> {
  /** As the person typed it (an ASCII local part; the domain may be Unicode). */
  to: string;
  language: Locale;
  now?: Date;
  /** Without angle brackets; default: a random id at the sender's domain. */
  messageId?: string;
}

const CRLF = '\r\n';

const dagen = (days: number) => `${days} ${days === 1 ? 'dag' : 'dagen'}`;
// What is still to do comes first, as on the page after signing up; the leave link is for after confirming.
const nl = {
  greeting: 'Hoi,',
  buttonFallback: 'Werkt de knop niet? Kopieer dan deze link en plak hem in je browser:',
  questions: (contact: string) => `Vragen? Mail gerust naar ${contact}.`,
  signOff: (brand: string) => ['Groeten,', `Het ${brand}-team`],
  subject: (brand: string) => `Bevestig je aanmelding voor de wachtlijst van ${brand}`,
  preheader: 'Nog één stap: bevestig je aanmelding met de knop in deze mail.',
  signedUp: (brand: string) =>
    `Iemand (hopelijk jij) heeft dit adres aangemeld voor de wachtlijst van ${brand}.`,
  confirmByLink: 'Was jij dat? Dan nog één stap: bevestig je aanmelding via deze link:',
  confirmByButton: 'Was jij dat? Dan nog één stap: bevestig je aanmelding met de knop hieronder.',
  button: 'Bevestig mijn aanmelding',
  validity: (days: number) => `De link is ${dagen(days)} geldig.`,
  ignore: (days: number) =>
    'Was jij het niet, of wil je toch niet op de wachtlijst? Dan kun je deze mail gewoon negeren. ' +
    `We sturen je verder niets en verwijderen je adres na ${dagen(days)}.`,
  leaveLater: 'Al bevestigd en toch geen interesse meer?',
  leave: 'Meld je hier af',
  leaveSubject: (brand: string) => `Je afmeldlink voor de wachtlijst van ${brand}`,
  leaveHere: (brand: string) => `Hier is je link om je af te melden voor de wachtlijst van ${brand}:`,
  leaveButton: 'Afmelden',
  leaveNotAsked:
    'Heb je hier niet om gevraagd? Dan hoef je niets te doen: je blijft op de wachtlijst. Er gebeurt pas iets als je op de pagina achter de link op de knop drukt.',
  announcedWhy: (brand: string) =>
    `Je krijgt deze mail omdat je je hebt aangemeld voor de wachtlijst van ${brand}.`,
  announcedLeave: 'Wil je niets meer van ons horen? Meld je hier af:',
};

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
const en: typeof nl = {
  greeting: 'Hello,',
  buttonFallback: 'Button not working? Copy this link into your browser:',
  questions: (contact) => `Questions? Email us at ${contact}.`,
  signOff: (brand) => ['Best wishes,', `The ${brand} team`],
  subject: (brand) => `Confirm your signup for the ${brand} waitlist`,
  preheader: 'One more step: confirm your signup with the button in this email.',
  signedUp: (brand) => `Someone (hopefully you) used this email address to join the ${brand} waitlist.`,
  confirmByLink: 'If that was you, there is one more step: confirm your signup with this link:',
  confirmByButton: 'If that was you, there is one more step: confirm your signup with the button below.',
  button: 'Confirm my signup',
  validity: (count) => `The link works for ${days(count)}.`,
  ignore: (count) =>
    "Didn't sign up, or changed your mind? Then just ignore this email. " +
    `We won't send you anything else, and we'll delete your address after ${days(count)}.`,
  leaveLater: 'Change your mind after confirming?',
  leave: 'Leave the waitlist',
  leaveSubject: (brand) => `Your link to leave the ${brand} waitlist`,
  leaveHere: (brand) => `Here is your link to leave the ${brand} waitlist:`,
  leaveButton: 'Leave the waitlist',
  leaveNotAsked:
    "Didn't ask for this? Then there is nothing to do: you stay on the waitlist. The link does nothing until you press the button on the page it opens.",
  announcedWhy: (brand) => `You are getting this email because you joined the ${brand} waitlist.`,
  announcedLeave: 'Rather not hear from us again? Leave the waitlist:',
};

const COPY: Record<Locale, typeof nl> = { nl, en };

export function confirmationMail(
  input: MailEnvelope & { confirmUrl: string; validDays: number; leaveUrl?: string },
) {
  const { brandName, validDays } = input;
  const copy = COPY[input.language];
  const url = absoluteUrl(input.confirmUrl, 'confirmUrl');
  const leave = input.leaveUrl === undefined ? undefined : absoluteUrl(input.leaveUrl, 'leaveUrl');
  const signOff = copy.signOff(brandName);
  const after = [copy.validity(validDays), copy.ignore(validDays), copy.questions(input.contactEmail)];
  return composeMail(input, {
    subject: copy.subject(brandName),
    preheader: copy.preheader,
    text: [
      copy.greeting,
      `${copy.signedUp(brandName)} ${copy.confirmByLink}`,
      url,
      ...after,
      signOff.join(CRLF),
      // The URL after a space and nothing after it: a plain-text reader's mail program makes it a link.
      ...(leave ? [`${copy.leaveLater} ${copy.leave}: ${leave}`] : []),
    ],
    html: [
      paragraph(copy.greeting),
      paragraph(`${copy.signedUp(brandName)} ${copy.confirmByButton}`),
      button(copy.button, url, copy.buttonFallback),
      ...after.map((text) => paragraph(text)),
      htmlSignOff(signOff),
      // The link's words, not its URL: at 390 px the URL alone is wider than the screen.
      ...(leave ? [footer([[`${copy.leaveLater} `, { text: copy.leave, href: leave }]])] : []),
    ],
    leaveUrl: leave,
  });
}

export function leaveLinkMail(input: MailEnvelope & { leaveUrl: string }) {
  const copy = COPY[input.language];
  const leave = absoluteUrl(input.leaveUrl, 'leaveUrl');
  const signOff = copy.signOff(input.brandName);
  const before = [copy.greeting, copy.leaveHere(input.brandName)];
  const after = [copy.leaveNotAsked, copy.questions(input.contactEmail)];
  return composeMail(input, {
    subject: copy.leaveSubject(input.brandName),
    text: [...before, leave, ...after, signOff.join(CRLF)],
    html: [
      ...before.map((text) => paragraph(text)),
      button(copy.leaveButton, leave, copy.buttonFallback),
      ...after.map((text) => paragraph(text)),
      htmlSignOff(signOff),
    ],
    leaveUrl: leave,
  });
}

/** The leave link is written out: Telecommunicatiewet art. 11.7, and Gmail and Yahoo ask for a visible one. */
export function announcementMail(input: MailEnvelope & { announcement: AnnouncementText; leaveUrl: string }) {
  const { paragraphs, subject } = input.announcement;
  const copy = COPY[input.language];
  const leave = absoluteUrl(input.leaveUrl, 'leaveUrl');
  for (const part of paragraphs.flat())
    if (typeof part !== 'string') absoluteUrl(part.href, 'a link of the announcement');
  const ending = [
    [copy.announcedWhy(input.brandName), ' ', copy.questions(input.contactEmail)],
    [`${copy.announcedLeave} `, { text: leave, href: leave }],
  ];
  // In the text a link reads as its words and then the URL, or the URL alone.
  const plain = (content: Inline[]) =>
    content
      .map((part) =>
        typeof part === 'string' ? part : part.text === part.href ? part.href : `${part.text} (${part.href})`,
      )
      .join('');
  return composeMail(input, {
    subject,
    text: [...paragraphs.map(plain), '--', ...ending.map(plain)],
    html: [...paragraphs.map((content) => paragraph(content)), footer(ending)],
    leaveUrl: leave,
  });
}

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
function absoluteUrl(typed: string, field: string): string {
  const url = URL.parse(typed);
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') throw new Error(`${field} must be http(s)`);
  return url.href;
}

const ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&${ENTITIES[char]};`);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// The look's pieces, each one HTML line, every value escaped; a URL breaks anywhere, to fit a phone.
function paragraph(content: readonly Inline[] | string, style = ''): string {
  const inner = (typeof content === 'string' ? [content] : content)
    .map((part) =>
      typeof part === 'string'
        ? escapeHtml(part)
        : `<a href="${escapeHtml(part.href)}" style="color:${BRAND_GREEN};text-decoration:underline${part.text === part.href ? ';word-break:break-all' : ''}">${escapeHtml(part.text)}</a>`,
    )
    .join('');
  return `<p style="margin:0 0 16px${style}">${inner}</p>`;
}

/** A table cell carries the colour in Outlook for Windows; below it, the URL for when the button fails. */
const button = (label: string, url: string, fallback: string) =>
  [
    '<table role="presentation" border="0" cellpadding="0" cellspacing="0" style="margin:0 0 24px"><tr>',
    `<td bgcolor="${BRAND_GREEN}" style="border-radius:9999px;background-color:${BRAND_GREEN}">`,
    `<a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 24px;border-radius:9999px;background-color:${BRAND_GREEN};color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(label)}</a>`,
    '</td>',
    '</tr></table>',
    paragraph(fallback),
    paragraph(url, ';word-break:break-all'),
  ].join(CRLF);

const htmlSignOff = (lines: readonly string[]) =>
  `<p style="margin:0">${lines.map(escapeHtml).join('<br>')}</p>`;

const footer = (paragraphs: readonly (readonly Inline[])[]) =>
  [
    '<hr style="border:0;border-top:1px solid #e5e7eb;margin:24px 0 16px">',
    ...paragraphs.map((content) => paragraph(content, ';font-size:14px;color:#4b5563')),
  ].join(CRLF);

/** Text and HTML with CRLF line breaks, as they travel; `raw`: the RFC 5322 message, for SES or an .eml file. */
export type ComposedMail = ReturnType<typeof composeMail>;

/** `preheader`: the line an inbox shows after the subject. `leaveUrl`: RFC 8058's one-click headers. */
function composeMail(
  envelope: MailEnvelope,
  content: { subject: string; preheader?: string; text: string[]; html: string[]; leaveUrl?: string },
) {
  // Names the field only: values may be addresses.
  for (const [field, value] of [...Object.entries(envelope), ...Object.entries(content)])
    if (typeof value === 'string' && CONTROL.test(value))
      throw new Error(`${field} holds a control character`);
  const { language, brandName, contactEmail, now = new Date() } = envelope;
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
    `From: ${ASCII_PHRASE.test(brandName) ? brandName : encodedWords(brandName)} <${mailboxAddress(envelope.mailFrom)}>`,
    `To: ${mailboxAddress(envelope.to)}`,
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
  ];
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: base64',
      '',
      base64(body).replace(/.{76}(?!$)/g, `$&${CRLF}`),
    ].join(CRLF);
  const raw = [...headers, '', part('text/plain', text), part('text/html', html), `--${boundary}--`, ''];
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
