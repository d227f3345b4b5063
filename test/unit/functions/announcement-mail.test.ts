import { type ParsedMail, simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { LOCALES } from '#contract/locales';
import { parseAnnouncementText } from '../../../functions/announce/announcement-text';
import { announcementMail } from '../../../functions/mailer/announcement-mail';
import { confirmationMail } from '../../../functions/mailer/confirmation-mail';
import { leaveLinkMail } from '../../../functions/mailer/leave-link-mail';

const LEAVE_URL = 'https://mandje.nl/api/leave?lang=nl&t=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const envelope = {
  to: 'Ann@Bücher.de',
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'vragen@mandje.nl',
  brandName: 'Mandje',
  now: new Date('2026-03-03T10:00:00Z'),
  messageId: 'launch.0123456789abcdef@mandje.nl',
};
const announcement = parseAnnouncementText(
  'Subject: Mandje is er <eindelijk>!\n\nHoi,\n\nKijk op https://mandje.nl/start. Of lees [het verhaal & meer](https://mandje.nl/blog?a=1&b=2).\n',
  'nl.md',
);

/** A header as written: mailparser reads List-* headers into an object of its own. */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines.find(({ key }) => key === name)?.line.replace(/^[^:]*:\s*/, '');

const MAILS = {
  announcement: (language: 'nl' | 'en') =>
    announcementMail({ ...envelope, language, announcement, leaveUrl: LEAVE_URL }),
  'leave link': (language: 'nl' | 'en') => leaveLinkMail({ ...envelope, language, leaveUrl: LEAVE_URL }),
  confirmation: (language: 'nl' | 'en') =>
    confirmationMail({
      ...envelope,
      language,
      confirmUrl: 'https://mandje.nl/api/confirm?t=x',
      validDays: 7,
      leaveUrl: LEAVE_URL,
    }),
};

describe.each(Object.entries(MAILS))('the %s mail, read by a mail client', (_name, make) => {
  it.each(LOCALES)(
    'in %s has both parts, the sender, one recipient, and both RFC 8058 headers',
    async (language) => {
      const mail = await simpleParser(make(language).raw);

      expect(mail.from?.value).toEqual([{ name: 'Mandje', address: 'hallo@mandje.nl' }]);
      expect(mail.replyTo?.value).toEqual([{ name: '', address: 'vragen@mandje.nl' }]);
      // Written in the domain's ASCII form; a mail client shows it in Unicode.
      expect(rawHeader(mail, 'to')).toBe('Ann@xn--bcher-kva.de');
      expect(Array.isArray(mail.to) ? mail.to : mail.to?.value).toEqual([
        { name: '', address: 'Ann@bücher.de' },
      ]);
      expect(mail.text?.length).toBeGreaterThan(0);
      expect(mail.messageId).toBe(`<${envelope.messageId}>`);
      expect(rawHeader(mail, 'list-unsubscribe')).toBe(`<${LEAVE_URL}>`);
      expect(rawHeader(mail, 'list-unsubscribe-post')).toBe(`${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`);
      expect(mail.text).toContain(LEAVE_URL);
      expect(mail.html).toContain(`href="${LEAVE_URL.replaceAll('&', '&amp;')}"`);
      expect(mail.html).toMatch(new RegExp(`<html lang="${language}"`));
    },
  );

  it('names nobody but the recipient, in To only', () => {
    const { raw, text, html } = make('nl');
    expect(raw.match(/ann@/gi)).toHaveLength(1);
    expect(`${text}${html}`).not.toMatch(/ann@/i);
  });
});

describe('the announcement mail', () => {
  it('carries the operator’s paragraphs and links, every character escaped in the html', async () => {
    const { html, text, subject } = MAILS.announcement('nl');

    expect(subject).toBe('Mandje is er <eindelijk>!');
    expect(html).toContain('<title>Mandje is er &lt;eindelijk&gt;!</title>');
    expect(html).toContain('href="https://mandje.nl/start"');
    expect(html).toContain('href="https://mandje.nl/blog?a=1&amp;b=2"');
    expect(html).toContain('>het verhaal &amp; meer</a>');
    expect(text).toContain(
      'Kijk op https://mandje.nl/start. Of lees het verhaal & meer (https://mandje.nl/blog?a=1&b=2).',
    );
  });

  it.each([
    ['nl', 'Wil je niets meer van ons horen? Meld je hier af:'],
    ['en', 'Rather not hear from us again? Leave the waitlist:'],
  ] as const)('in %s shows the way off the list in the body', (language, words) => {
    const { text } = MAILS.announcement(language);
    expect(text).toContain(`${words} ${LEAVE_URL}`);
  });
});

describe('the leave-link mail', () => {
  it.each([
    ['nl', 'Hier is je link om je af te melden voor de wachtlijst van Mandje:'],
    ['en', 'Here is your link to leave the Mandje waitlist:'],
  ] as const)('in %s says what the link is for', (language, words) => {
    expect(MAILS['leave link'](language).text).toContain(words);
  });

  it('has a pill for a button, as the site has', () => {
    expect(MAILS['leave link']('nl').html).toMatch(/<a [^>]*border-radius:9999px/);
  });
});

describe('the confirmation mail with a leave link', () => {
  it.each([
    ['nl', 'Al bevestigd en toch geen interesse meer?', 'Meld je hier af'],
    ['en', 'Change your mind after confirming?', 'Leave the waitlist'],
  ] as const)(
    'in %s ends with the leave link: its URL in the text, its words in the html',
    (language, question, words) => {
      const { text, html } = MAILS.confirmation(language);
      expect(text.trimEnd().endsWith(`${question} ${words}: ${LEAVE_URL}`)).toBe(true);
      expect(html).toContain(`${question} <a href="${LEAVE_URL.replaceAll('&', '&amp;')}"`);
      expect(html).toMatch(new RegExp(`>${words}</a></p>`));
      expect(html).not.toContain(`>${LEAVE_URL.replaceAll('&', '&amp;')}</a>`);
    },
  );

  it('carries no RFC 8058 headers when no leave link is given', () => {
    const { raw } = confirmationMail({
      ...envelope,
      language: 'nl',
      confirmUrl: 'https://mandje.nl/api/confirm?t=x',
      validDays: 7,
    });
    expect(raw).not.toMatch(/^List-Unsubscribe/m);
  });
});
