/**
 * Every mail fits a phone: its HTML part, read out of the raw message by the mail parser a mail program would
 * use (mailparser), shown in Chromium at 390 px, scrolls only down, never sideways, in either language. The
 * links are as long as the real ones: a token made as the mailer makes it, on the site's origin.
 */
import { simpleParser } from 'mailparser';
import { confirmationLink } from '#contract/confirmation';
import { leaveLink } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { parseAnnouncementText } from '../../functions/announce/announcement-text';
import { newConfirmationToken, newLinkId } from '../../functions/confirm/confirmation-token';
import { leaveToken, newLeaveKey } from '../../functions/leave/leave-token';
import { announcementMail } from '../../functions/mailer/announcement-mail';
import { confirmationMail } from '../../functions/mailer/confirmation-mail';
import { leaveLinkMail } from '../../functions/mailer/leave-link-mail';
import type { ComposedMail } from '../../functions/mailer/mail-layout';
import { expect, SITE, test } from './support';

const SITE_URL = SITE.url;

const envelope = (language: Locale) => ({
  to: 'ann@example.nl',
  language,
  mailFrom: SITE.contactEmail,
  contactEmail: SITE.contactEmail,
  brandName: 'Mandje',
});

function links(language: Locale) {
  const linkId = newLinkId();
  return {
    confirmUrl: confirmationLink(SITE_URL, language, newConfirmationToken(linkId).token),
    leaveUrl: leaveLink(SITE_URL, language, leaveToken(linkId, newLeaveKey())),
  };
}

const MAILS: Record<string, (language: Locale) => ComposedMail> = {
  confirmation: (language) =>
    confirmationMail({ ...envelope(language), ...links(language), validDays: PENDING_DAYS }),
  'leave link': (language) => leaveLinkMail({ ...envelope(language), leaveUrl: links(language).leaveUrl }),
  announcement: (language) =>
    announcementMail({
      ...envelope(language),
      leaveUrl: links(language).leaveUrl,
      announcement: parseAnnouncementText(
        `Subject: Mandje is er\n\nHoi! Mandje is er: ${SITE_URL}/?utm_source=aankondiging&utm_medium=mail&utm_campaign=lancering\n`,
        `${language}.md`,
      ),
    }),
};

for (const [name, make] of Object.entries(MAILS)) {
  for (const language of LOCALES) {
    test(`the ${name} mail in ${language} scrolls no wider than a 390 px screen`, async ({ page }) => {
      const { html } = await simpleParser(make(language).raw);
      expect(typeof html, 'the mail has an HTML part').toBe('string');
      await page.setViewportSize({ width: 390, height: 844 });

      await page.setContent(html as string);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));

      expect(clientWidth).toBe(390);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    });
  }
}
