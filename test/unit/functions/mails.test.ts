// The three mails (functions/mailer/mail-layout.ts), read back by a real mail parser.
import { type ParsedMail, simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { parseAnnouncementText } from '../../../functions/announce/announcement-text';
import {
  announcementMail,
  confirmationMail,
  leaveLinkMail,
  mailboxAddress,
} from '../../../functions/mailer/mail-layout';

const CONFIRM_URL = 'https://mandje.nl/api/confirm?lang=nl&t=abc123';
const LEAVE_URL = 'https://mandje.nl/api/leave?lang=nl&t=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const envelope = {
  to: 'Ann@Bücher.de',
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'vragen@mandje.nl',
  brandName: 'Mandje',
  now: new Date('2026-03-03T10:00:00Z'),
  messageId: 'test-1@mandje.nl',
};
const confirmation = (overrides: Partial<Parameters<typeof confirmationMail>[0]> = {}) =>
  confirmationMail({
    ...envelope,
    language: 'nl',
    confirmUrl: CONFIRM_URL,
    validDays: 7,
    leaveUrl: LEAVE_URL,
    ...overrides,
  });
const announcement = parseAnnouncementText(
  'Subject: Mandje is er <eindelijk>!\n\nHoi,\n\nKijk op https://mandje.nl/start. Of lees [het verhaal & meer](https://mandje.nl/blog?a=1&b=2).\n',
  'nl.md',
);
const MAILS = {
  confirmation: (language: Locale) => confirmation({ language }),
  'leave link': (language: Locale) => leaveLinkMail({ ...envelope, language, leaveUrl: LEAVE_URL }),
  announcement: (language: Locale) =>
    announcementMail({ ...envelope, language, announcement, leaveUrl: LEAVE_URL }),
};
/** A header as written: mailparser reads some into objects of its own. */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines.find(({ key }) => key === name)?.line.replace(/^[^:]*:\s*/, '');
/** The html's text as a reader sees it. */
const visible = (html: string) =>
  html
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
/** Mailparser gives the parts with LF line ends. */
const lf = (text: string) => text.replace(/\r\n/g, '\n');
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe.each(Object.entries(MAILS))('the %s mail, read by a mail client', (_name, make) => {
  it.each(LOCALES)(
    'in %s: both parts as written, sender, one recipient, reply address, id, RFC 8058',
    async (language) => {
      const composed = make(language);
      const mail = await simpleParser(composed.raw);

      expect(mail.text).toBe(lf(composed.text));
      expect(mail.html).toBe(lf(composed.html));
      expect(mail.subject).toBe(composed.subject);
      expect(mail.from?.value).toEqual([{ name: 'Mandje', address: 'hallo@mandje.nl' }]);
      expect(mail.replyTo?.value).toEqual([{ name: '', address: 'vragen@mandje.nl' }]);
      // Written in the domain's ASCII form; a mail client shows it in Unicode.
      expect(rawHeader(mail, 'to')).toBe('Ann@xn--bcher-kva.de');
      expect(mail.messageId).toBe(`<${envelope.messageId}>`);
      expect(mail.date?.toISOString()).toBe('2026-03-03T10:00:00.000Z');
      expect(rawHeader(mail, 'auto-submitted')).toBe('auto-generated');
      expect(rawHeader(mail, 'list-unsubscribe')).toBe(`<${LEAVE_URL}>`);
      expect(rawHeader(mail, 'list-unsubscribe-post')).toBe(`${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`);
      expect(composed.html).toMatch(new RegExp(`<html lang="${language}"`));
      expect(composed.html).not.toMatch(/<(img|script|link|iframe|object|embed)\b|\bsrc=|url\(/i);
      // Every line within 998, ending in CRLF; nobody named but the recipient, in To only.
      expect(composed.raw.split('\r\n').filter((line) => line.length > 998 || /[\r\n]/.test(line))).toEqual(
        [],
      );
      expect(composed.raw.match(/ann@/gi)).toHaveLength(1);
      expect(`${composed.text}${composed.html}`).not.toMatch(/ann@/i);
    },
  );
});

describe('the confirmation mail', () => {
  it.each([
    [
      'nl',
      [
        'Iemand (hopelijk jij) heeft dit adres aangemeld voor de wachtlijst van Mandje. Was jij dat? Dan nog één stap: bevestig je aanmelding',
        'De link is 7 dagen geldig.',
        'Dan kun je deze mail gewoon negeren. We sturen je verder niets en verwijderen je adres na 7 dagen.',
        'Vragen? Mail gerust naar vragen@mandje.nl.',
      ],
      'Bevestig mijn aanmelding',
    ],
    [
      'en',
      [
        'Someone (hopefully you) used this email address to join the Mandje waitlist. If that was you, there is one more step: confirm your signup',
        'The link works for 7 days.',
        "Then just ignore this email. We won't send you anything else, and we'll delete your address after 7 days.",
        'Questions? Email us at vragen@mandje.nl.',
      ],
      'Confirm my signup',
    ],
  ] as const)(
    'in %s says who signed up, what is left, how long, what if ignored, whom to ask',
    (language, sentences, button) => {
      const { text, html } = confirmation({ language });
      for (const sentence of sentences) {
        expect(oneLine(text)).toContain(sentence);
        expect(visible(html)).toContain(sentence);
      }
      // The link on a line of its own in the text; in the html a button, the URL written out below it.
      expect(text.split('\r\n')).toContain(CONFIRM_URL);
      expect(html).toMatch(
        new RegExp(
          `<a href="${CONFIRM_URL.replaceAll('&', '&amp;').replace('?', '\\?')}"[^>]*>${button}</a>`,
        ),
      );
      expect(visible(html).indexOf(CONFIRM_URL)).toBeGreaterThan(visible(html).indexOf(button));
    },
  );

  it('says first, in the preheader an inbox shows beside the subject, that one step is left; its button white on brand green (5.0:1, WCAG AA)', () => {
    const { html } = confirmation();
    expect(html).toMatch(
      /<body[^>]*>\s*<div[^>]*>\s*<div style="display:none[^"]*">Nog één stap: bevestig je aanmelding met de knop in deze mail\.<\/div>/,
    );
    const style = /<a\b[^>]*style="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(style).toContain('background-color:#15803d');
    expect(style).toContain('color:#ffffff');
  });

  it.each([
    ['nl', 1, 'De link is 1 dag geldig.', 'verwijderen je adres na 1 dag.'],
    ['en', 3, 'The link works for 3 days.', 'delete your address after 3 days.'],
    ['en', 1, 'The link works for 1 day.', 'delete your address after 1 day.'],
  ] as const)(
    'in %s, %i day(s) reads as a person would write it',
    (language, validDays, validity, deletion) => {
      const { text } = confirmation({ language, validDays });
      expect(text).toContain(validity);
      expect(oneLine(text)).toContain(deletion);
    },
  );

  it.each([
    ['nl', 'Al bevestigd en toch geen interesse meer?', 'Meld je hier af'],
    ['en', 'Change your mind after confirming?', 'Leave the waitlist'],
  ] as const)(
    'in %s ends with the leave link: its URL in the text, its words in the html',
    (language, question, words) => {
      const { text, html } = confirmation({ language });
      expect(text.trimEnd().endsWith(`${question} ${words}: ${LEAVE_URL}`)).toBe(true);
      expect(html).toContain(`${question} <a href="${LEAVE_URL.replaceAll('&', '&amp;')}"`);
      expect(html).toMatch(new RegExp(`>${words}</a></p>`));
    },
  );

  it('carries no RFC 8058 headers without a leave link, and a fresh Message-ID at the sender’s domain without one given', () => {
    const [one, two] = [1, 2].map(() => confirmation({ leaveUrl: undefined, messageId: undefined }).raw);
    expect(one).not.toMatch(/^List-Unsubscribe/m);
    const id = (raw = '') => /^Message-ID: <([^>]+)>/m.exec(raw)?.[1];
    expect(id(one)).toMatch(/^[^<>@\s]+@mandje\.nl$/);
    expect(id(one)).not.toBe(id(two));
  });

  it('escapes every value it writes in, so addresses, the brand and the URL add no markup', () => {
    const { html } = confirmation({
      contactEmail: "a&b'c{/}@example.nl",
      brandName: `Mandje's <b>"best"</b> & co`,
      confirmUrl: `https://mandje.nl/bevestig?token=a&next=b#'"<x>`,
    });
    const tags = new Set([...html.matchAll(/<\/?([a-z!]+)/gi)].map(([, name = '']) => name.toLowerCase()));
    expect([...tags].sort().join(' ')).toBe('!doctype a body br div head hr html meta p table td title tr');
    expect(html).toContain('a&amp;b&#39;c{/}@example.nl');
    expect(html).toContain('Mandje&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt; &amp; co');
    expect(html).toContain('href="https://mandje.nl/bevestig?token=a&amp;next=b#&#39;%22%3Cx%3E"');
  });

  it('encodes a non-ASCII subject and name as UTF-8 words of whole characters, lines within 76, and cannot be cut by a link holding the boundary', async () => {
    const brandName = 'Bücher😀'.repeat(30);
    const boundary = /boundary="([^"]+)"/.exec(confirmation().raw)?.[1];
    const confirmUrl = `https://mandje.nl/bevestig?token=${boundary}--${'a1'.repeat(600)}`;
    const composed = confirmation({ brandName, confirmUrl });
    const mail = await simpleParser(composed.raw);

    expect(mail.subject).toBe(composed.subject);
    expect(mail.from?.value[0]?.name).toBe(brandName);
    expect(mail.text).toBe(lf(composed.text));
    expect(mail.html).toBe(lf(composed.html));
    const [head = '', ...body] = composed.raw.split('\r\n\r\n');
    expect(head).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    const words = [...head.matchAll(/=\?UTF-8\?B\?([^?]*)\?=/g)].map(([, word = '']) =>
      Buffer.from(word, 'base64').toString(),
    );
    expect(words.join('')).not.toContain('\uFFFD');
    expect(
      head.split('\r\n').filter((line) => /^(Subject|From): | =\?/.test(line) && line.length > 76),
    ).toEqual([]);
    expect(
      body
        .join('\r\n\r\n')
        .split('\r\n')
        .filter((line) => line.length > 76),
    ).toEqual([]);
  });

  it.each(['to', 'mailFrom', 'confirmUrl', 'contactEmail', 'brandName', 'messageId'] as const)(
    'refuses a CR or LF in %s, which could add headers of its own',
    (field) => {
      for (const eol of ['\r\n', '\n', '\r']) {
        const value = { ...envelope, confirmUrl: CONFIRM_URL }[field];
        expect(() => confirmation({ [field]: `${value}${eol}Bcc: x@evil.example` })).toThrow();
      }
    },
  );

  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://mandje.nl/bevestig',
    '/bevestig?token=abc123',
  ])('refuses a link that is not an absolute http(s) URL: %j', (confirmUrl) => {
    expect(() => confirmation({ confirmUrl })).toThrow();
  });

  it('refuses a recipient the waitlist rule refuses, without naming the address in its error', () => {
    expect(() => confirmation({ to: 'ann@example.nl/evil' })).toThrow();
    expect(() => confirmation({ to: 'ann.secret@example.nl\r\n' })).toThrow(/^(?!.*secret).*$/);
  });
});

describe('the announcement and leave-link mails', () => {
  it('carry the operator’s paragraphs and links, every character escaped in the html', () => {
    const { html, text, subject } = MAILS.announcement('nl');
    expect(subject).toBe('Mandje is er <eindelijk>!');
    expect(html).toContain('<title>Mandje is er &lt;eindelijk&gt;!</title>');
    expect(html).toContain('href="https://mandje.nl/blog?a=1&amp;b=2"');
    expect(html).toContain('>het verhaal &amp; meer</a>');
    expect(text).toContain(
      'Kijk op https://mandje.nl/start. Of lees het verhaal & meer (https://mandje.nl/blog?a=1&b=2).',
    );
  });

  it.each([
    [
      'nl',
      'Wil je niets meer van ons horen? Meld je hier af:',
      'Hier is je link om je af te melden voor de wachtlijst van Mandje:',
    ],
    [
      'en',
      'Rather not hear from us again? Leave the waitlist:',
      'Here is your link to leave the Mandje waitlist:',
    ],
  ] as const)('in %s show the way off the list in the body', (language, announced, leaveLink) => {
    expect(MAILS.announcement(language).text).toContain(`${announced} ${LEAVE_URL}`);
    expect(MAILS['leave link'](language).text).toContain(leaveLink);
    expect(MAILS['leave link'](language).html).toMatch(/<a [^>]*border-radius:9999px/);
  });
});

describe('mailboxAddress', () => {
  it.each([
    ['an IDN domain in its ASCII form, the local part as typed', 'Jose@bücher.de', 'Jose@xn--bcher-kva.de'],
    ['the domain in lower case, no trailing dot', 'Ann.Smit@Example.NL.', 'Ann.Smit@example.nl'],
    ['a plus tag', 'ann+mandje@example.nl', 'ann+mandje@example.nl'],
    [
      'a local part that is no dot-atom quoted, so it stays one mailbox',
      'a..b@example.nl',
      '"a..b"@example.nl',
    ],
  ])('gives %s', (_case, typed, address) => {
    expect(mailboxAddress(typed)).toBe(address);
  });
});
