import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/locales';
import { type ConfirmationMailInput, confirmationMail } from '../../../functions/mailer/confirmation-mail';
import { mailboxAddress } from '../../../functions/mailer/mail-layout';

const CONFIRM_URL = 'https://mandje.nl/bevestig?token=abc123';

const input = (overrides: Partial<ConfirmationMailInput> = {}): ConfirmationMailInput => ({
  to: 'ann@example.nl',
  language: 'nl',
  confirmUrl: CONFIRM_URL,
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'vragen@mandje.nl',
  brandName: 'Mandje',
  validDays: 7,
  now: new Date('2026-03-03T10:00:00Z'),
  messageId: 'test-1@mandje.nl',
  ...overrides,
});

/** What a reader of each language should find in the mail. */
const reads = {
  nl: {
    subject: 'Bevestig je aanmelding voor de wachtlijst van Mandje',
    signedUp: 'Iemand (hopelijk jij) heeft dit adres aangemeld voor de wachtlijst van Mandje. Was jij dat?',
    nextStep: 'nog één stap: bevestig je aanmelding',
    preheader: 'Nog één stap: bevestig je aanmelding met de knop in deze mail.',
    button: 'Bevestig mijn aanmelding',
    validity: 'De link is 7 dagen geldig.',
    ignored:
      'Dan kun je deze mail gewoon negeren. We sturen je verder niets en verwijderen je adres na 7 dagen.',
    contact: 'Vragen? Mail gerust naar vragen@mandje.nl.',
  },
  en: {
    subject: 'Confirm your signup for the Mandje waitlist',
    signedUp: 'Someone (hopefully you) used this email address to join the Mandje waitlist.',
    nextStep: 'one more step: confirm your signup',
    preheader: 'One more step: confirm your signup with the button in this email.',
    button: 'Confirm my signup',
    validity: 'The link works for 7 days.',
    ignored:
      "Then just ignore this email. We won't send you anything else, and we'll delete your address after 7 days.",
    contact: 'Questions? Email us at vragen@mandje.nl.',
  },
} satisfies Record<Locale, Record<string, string>>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name) => ENTITIES[name] ?? '');

/** The html's text as a reader sees it: no head, no tags, entities decoded, whitespace collapsed. */
function visibleText(html: string): string {
  const body = html.replace(/<head>[\s\S]*<\/head>/, '').replace(/<[^>]*>/g, ' ');
  return decodeEntities(body).replace(/\s+/g, ' ').trim();
}

function links(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map(
    ([, href = '', text = '']) => ({
      href: decodeEntities(href),
      text: visibleText(text),
    }),
  );
}

/** RFC 2047 B-encoded words back to text; folding between adjacent words is not part of the text. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\r\n (?==\?)/g, '?=')
    .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g, (_, base64: string) =>
      Buffer.from(base64, 'base64').toString(),
    );
}

interface Part {
  headers: Map<string, string>;
  encodedLines: string[];
  content: string;
}

/** Just enough of RFC 5322 and MIME to read back what confirmationMail wrote. */
function parseMessage(raw: string) {
  const split = (text: string) => {
    const end = text.indexOf('\r\n\r\n');
    const headerLines = text.slice(0, end).split(/\r\n(?![ \t])/);
    const headers = new Map(
      headerLines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 2),
      ]),
    );
    return { headers, body: text.slice(end + 4) };
  };
  const message = split(raw);
  const boundary = /boundary="([^"]+)"/.exec(message.headers.get('content-type') ?? '')?.[1] ?? '';
  const sections = `\r\n${message.body}`.split(`\r\n--${boundary}`);
  const parts: Part[] = sections.slice(1, -1).map((section) => {
    const part = split(section.slice('\r\n'.length));
    return {
      headers: part.headers,
      encodedLines: part.body.split('\r\n'),
      content: Buffer.from(part.body, 'base64').toString(),
    };
  });
  return { headers: message.headers, boundary, parts, epilogue: sections.at(-1) };
}

/** WCAG relative luminance contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

describe.each(LOCALES)('the confirmation mail in %s', (language) => {
  const expected = reads[language];
  const mail = confirmationMail(input({ language }));

  it('has a subject that asks to confirm the waitlist signup', () => {
    expect(mail.subject).toBe(expected.subject);
  });

  it('says first, in the preheader an inbox shows beside the subject, that one step is left: confirming', () => {
    const body = mail.html.slice(mail.html.indexOf('<body'));
    const [, hidden = ''] =
      /^<body[^>]*>\s*<div[^>]*>\s*<div style="display:none[^"]*">([^<]*)<\/div>/.exec(body) ?? [];

    expect(hidden).toBe(expected.preheader);
    expect(mail.text.replace(/\s+/g, ' ')).toContain(expected.nextStep);
  });

  it.each([
    ['who signed up', expected.signedUp],
    ['what is left to do', expected.nextStep],
    ['how long the link works', expected.validity],
    ['what happens when it is ignored', expected.ignored],
    ['whom to ask', expected.contact],
  ])('says %s, in the text and the html', (_what, sentence) => {
    expect(mail.text.replace(/\s+/g, ' ')).toContain(sentence);
    expect(visibleText(mail.html)).toContain(sentence);
  });

  it('writes the link out on a line of its own in the text', () => {
    expect(mail.text.split('\r\n')).toContain(CONFIRM_URL);
  });

  it('has one link in the html: the button to the confirmation page, with the URL written out below', () => {
    expect(links(mail.html)).toEqual([{ href: CONFIRM_URL, text: expected.button }]);
    const visible = visibleText(mail.html);
    expect(visible.indexOf(CONFIRM_URL)).toBeGreaterThan(visible.indexOf(expected.button));
  });

  it('is an html document in the language of the signup, titled with the subject', () => {
    expect(mail.html).toMatch(new RegExp(`<html lang="${language}"`));
    expect(mail.html).toContain(`<title>${expected.subject}</title>`);
  });
});

describe('the html of the confirmation mail', () => {
  const { html } = confirmationMail(input());

  it('loads nothing: no images, scripts, stylesheets or frames, and no address but the link', () => {
    expect(html).not.toMatch(/<(img|script|link|iframe|object|embed)\b|\bsrc=|url\(/i);
    expect(html.match(/https?:\/\/[^\s"<]+/g)).toEqual([CONFIRM_URL, CONFIRM_URL]);
  });

  it('shows the button in white on brand green, with at least WCAG AA contrast', () => {
    const style = /<a\b[^>]*style="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(style).toContain('background-color:#15803d');
    expect(style).toContain('color:#ffffff');
    expect(contrast('#15803d', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('escapes every value it writes in, so addresses, the brand and the URL cannot add markup', () => {
    const hostile = input({
      // As much markup as an address can hold.
      contactEmail: "a&b'c{/}@example.nl",
      brandName: `Mandje's <b>"best"</b> & co`,
      confirmUrl: `https://mandje.nl/bevestig?token=a&next=b#'"<x>`,
    });

    const mail = confirmationMail(hostile);

    const tags = new Set(
      [...mail.html.matchAll(/<\/?([a-z!]+)/gi)].map(([, name = '']) => name.toLowerCase()),
    );
    expect([...tags].sort()).toEqual(
      [
        '!doctype',
        'a',
        'body',
        'br',
        'div',
        'head',
        'html',
        'meta',
        'p',
        'table',
        'td',
        'title',
        'tr',
      ].sort(),
    );
    expect(mail.html).toContain('a&amp;b&#39;c{/}@example.nl');
    expect(mail.html).toContain('Mandje&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt; &amp; co');
    expect(mail.html).toContain('href="https://mandje.nl/bevestig?token=a&amp;next=b#&#39;%22%3Cx%3E"');
    expect(visibleText(mail.html)).toContain(`Mail gerust naar ${hostile.contactEmail}.`);
  });
});

describe('the validity period', () => {
  it.each([
    ['nl', 3, 'De link is 3 dagen geldig.', 'verwijderen je adres na 3 dagen.'],
    ['nl', 1, 'De link is 1 dag geldig.', 'verwijderen je adres na 1 dag.'],
    ['en', 3, 'The link works for 3 days.', 'delete your address after 3 days.'],
    ['en', 1, 'The link works for 1 day.', 'delete your address after 1 day.'],
  ] as const)(
    'in %s, %i day(s) reads as a person would write it',
    (language, validDays, validity, deletion) => {
      const mail = confirmationMail(input({ language, validDays }));

      expect(mail.text).toContain(validity);
      expect(mail.text).toContain(deletion);
      expect(visibleText(mail.html)).toContain(validity);
    },
  );
});

describe('the raw message', () => {
  it.each(LOCALES)('in %s parses back into the same text and html', (language) => {
    const mail = confirmationMail(input({ language }));

    const { parts, epilogue } = parseMessage(mail.raw);

    expect(
      parts.map((part) => [part.headers.get('content-type'), part.headers.get('content-transfer-encoding')]),
    ).toEqual([
      ['text/plain; charset=utf-8', 'base64'],
      ['text/html; charset=utf-8', 'base64'],
    ]);
    expect(parts.map((part) => part.content)).toEqual([mail.text, mail.html]);
    expect(epilogue).toBe('--\r\n');
  });

  it('names the sender with the brand, the recipient, the date, the id, that a machine sent it, where replies go, and the MIME structure', () => {
    const { headers } = parseMessage(confirmationMail(input()).raw);

    expect(Object.fromEntries(headers)).toEqual({
      from: 'Mandje <hallo@mandje.nl>',
      to: 'ann@example.nl',
      subject: reads.nl.subject,
      date: 'Tue, 03 Mar 2026 10:00:00 +0000',
      'message-id': '<test-1@mandje.nl>',
      'auto-submitted': 'auto-generated',
      'reply-to': 'vragen@mandje.nl',
      'mime-version': '1.0',
      'content-type': expect.stringMatching(/^multipart\/alternative; boundary="[^"]+"$/),
    });
  });

  it('writes to the recipient at the ASCII form of their domain', () => {
    const { headers } = parseMessage(confirmationMail(input({ to: 'Jose@Bücher.de' })).raw);

    expect(headers.get('to')).toBe('Jose@xn--bcher-kva.de');
  });

  it('gives each mail its own Message-ID at the sender’s domain when none is given', () => {
    const ids = [1, 2].map(
      () =>
        parseMessage(confirmationMail(input({ messageId: undefined })).raw).headers.get('message-id') ?? '',
    );

    expect(ids[0]).toMatch(/^<[^<>@\s]+@mandje\.nl>$/);
    expect(ids[1]).toMatch(/^<[^<>@\s]+@mandje\.nl>$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it.each(LOCALES)(
    'in %s ends every line in CRLF, keeps lines within 998 and body lines within 76',
    (language) => {
      const longUrl = `https://mandje.nl/bevestig?token=${'a1'.repeat(600)}`;
      const mail = confirmationMail(input({ language, confirmUrl: longUrl, brandName: 'Bücher'.repeat(40) }));

      const lines = mail.raw.split('\r\n');
      const { parts } = parseMessage(mail.raw);

      expect(lines.filter((line) => /[\r\n]/.test(line))).toEqual([]);
      expect(lines.filter((line) => line.length > 998)).toEqual([]);
      expect(parts.flatMap((part) => part.encodedLines).filter((line) => line.length > 76)).toEqual([]);
      expect(parts[0]?.content).toContain(longUrl);
    },
  );

  it('cannot be cut short by a link that holds the boundary', () => {
    const { boundary } = parseMessage(confirmationMail(input()).raw);
    const confirmUrl = `https://mandje.nl/bevestig?token=${boundary}--`;

    const mail = confirmationMail(input({ confirmUrl }));
    const { parts } = parseMessage(mail.raw);

    expect(parts.map((part) => part.content)).toEqual([mail.text, mail.html]);
    expect(mail.text).toContain(confirmUrl);
  });
});

describe('the Subject and From headers', () => {
  const ENCODED_WORDS = /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=(?:\r\n =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=)*$/;

  it('write an ASCII subject as it is', () => {
    expect(parseMessage(confirmationMail(input()).raw).headers.get('subject')).toBe(reads.nl.subject);
  });

  it('encode a non-ASCII subject and display name as UTF-8 encoded words that decode back', () => {
    const mail = confirmationMail(input({ brandName: 'Mändje' }));

    const { headers } = parseMessage(mail.raw);
    const subject = headers.get('subject') ?? '';
    const [, displayName = '', address] = /^([\s\S]*) <([^>]*)>$/.exec(headers.get('from') ?? '') ?? [];

    expect(subject).toMatch(ENCODED_WORDS);
    expect(decodeHeader(subject)).toBe('Bevestig je aanmelding voor de wachtlijst van Mändje');
    expect(displayName).toMatch(ENCODED_WORDS);
    expect(decodeHeader(displayName)).toBe('Mändje');
    expect(address).toBe('hallo@mandje.nl');
  });

  it('fold a long subject into encoded words of whole characters on lines of at most 76', () => {
    const brandName = 'Bücher😀'.repeat(30);
    const mail = confirmationMail(input({ brandName }));

    const subjectLines = mail.raw
      .split('\r\n\r\n')[0]
      ?.split(/\r\n(?! )/)
      .find((line) => line.startsWith('Subject: '));
    const words = subjectLines?.slice('Subject: '.length) ?? '';

    expect(words).toMatch(ENCODED_WORDS);
    expect(words.split('\r\n').length).toBeGreaterThan(1);
    expect(subjectLines?.split('\r\n').filter((line) => line.length > 76)).toEqual([]);
    expect(words.split('\r\n ').map(decodeHeader).join('')).toBe(mail.subject);
    expect(words.split('\r\n ').map(decodeHeader).join('')).not.toContain('\uFFFD');
  });
});

describe('what confirmationMail refuses', () => {
  it.each(['to', 'mailFrom', 'confirmUrl', 'contactEmail', 'brandName', 'messageId'] as const)(
    'a CR or LF in %s, which could add headers of its own',
    (field) => {
      const value = input()[field];
      expect(() => confirmationMail(input({ [field]: `${value}\r\nBcc: x@evil.example` }))).toThrow();
      expect(() => confirmationMail(input({ [field]: `${value}\nBcc: x@evil.example` }))).toThrow();
      expect(() => confirmationMail(input({ [field]: `${value}\rBcc: x@evil.example` }))).toThrow();
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://mandje.nl/bevestig',
    '/bevestig?token=abc123',
  ])('a link that is not an absolute http(s) URL: %j', (confirmUrl) => {
    expect(() => confirmationMail(input({ confirmUrl }))).toThrow();
  });

  it('a recipient the waitlist rule refuses', () => {
    expect(() => confirmationMail(input({ to: 'ann@example.nl/evil' }))).toThrow();
  });

  it('does not name the refused address in its error, which may be logged', () => {
    expect(() => confirmationMail(input({ to: 'ann.secret@example.nl\r\n' }))).toThrow(/^(?!.*secret).*$/);
  });
});

describe('mailboxAddress', () => {
  it.each([
    ['an IDN domain in its ASCII form, the local part as typed', 'Jose@bücher.de', 'Jose@xn--bcher-kva.de'],
    ['the local part’s capitals, the domain in lower case', 'Ann.Smit@Example.NL', 'Ann.Smit@example.nl'],
    ['no trailing dot on the domain', 'ann@example.nl.', 'ann@example.nl'],
    ['a plus tag', 'ann+mandje@example.nl', 'ann+mandje@example.nl'],
    [
      'a local part that is no dot-atom quoted, so it stays one mailbox',
      'a..b@example.nl',
      '"a..b"@example.nl',
    ],
  ])('gives %s', (_case, typed, address) => {
    expect(mailboxAddress(typed)).toBe(address);
  });

  it.each(['ann@example.nl/evil', 'ann@exa mple.nl', 'ann', 'ann@localhost'])('refuses %j', (typed) => {
    expect(() => mailboxAddress(typed)).toThrow();
  });
});
