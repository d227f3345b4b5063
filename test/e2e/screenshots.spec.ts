/**
 * Screenshots for people to look at (test-results/screenshots/), nothing compared pixel by pixel; the
 * README's pictures of the page and of two mails, as a mail program shows their HTML part, land in docs/.
 */
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { parseAnnouncementText } from '../../functions/announce/announcement-text';
import { announcementMail, confirmationMail } from '../../functions/mailer/mail-layout';
import { demoParts, expect, LOCALE_CASES, openPage, SCREENSHOT_DIR, test } from './support';

const DOCS_DIR = join(import.meta.dirname, '../../docs');
const README_PICTURES: Record<string, string> = {
  'nl-1280-light': 'screenshot.png',
  'nl-390-dark': 'screenshot-dark-390.png',
};
const expectWritten = (file: string) =>
  expect(statSync(file).size, `${file} is not empty`).toBeGreaterThan(1_000);

for (const { locale, path, copy } of LOCALE_CASES) {
  for (const [width, height] of [
    [360, 740],
    [390, 844],
    [768, 1024],
    [1280, 800],
    [1920, 1080],
  ] as const)
    for (const colorScheme of ['light', 'dark'] as const)
      test(`full-page screenshot of ${path} at ${width} px, ${colorScheme} (${locale})`, async ({ page }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height });
        await openPage(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        );
        const name = `${locale}-${width}-${colorScheme}`;
        const file = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        expectWritten(file);
        const readmePicture = README_PICTURES[name];
        if (readmePicture) copyFileSync(file, join(DOCS_DIR, readmePicture));
      });

  test(`screenshot of the basket view at 390 px (${locale})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, path);
    const { section, basketTab, panel } = demoParts(page, copy);
    await basketTab.click();
    await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
    const file = join(SCREENSHOT_DIR, `${locale}-390-basket.png`);
    await section.screenshot({ path: file, animations: 'disabled' });
    expectWritten(file);
  });
}

const envelope = {
  to: 'ann@example.nl',
  language: 'nl',
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'hallo@mandje.nl',
  brandName: 'Mandje',
  now: new Date('2026-11-24T10:00:00Z'),
  messageId: 'readme-picture@mandje.nl',
  leaveUrl: 'https://mandje.nl/api/leave?lang=nl&t=voorbeeld',
} as const;
const announcement = [
  'Subject: Mandje is er: bespaar vanaf vandaag op je boodschappen',
  '',
  'Hoi! Je stond op de wachtlijst, en het wachten is voorbij: Mandje is er.',
  '',
  'Vraag Mandje waar je boodschappen deze week het voordeligst zijn, en zie meteen wat je bespaart.',
  '',
  '[Open Mandje](https://mandje.nl/)',
].join('\n');
const MAIL_PICTURES = {
  'confirmation-mail.png': {
    height: 800,
    mail: confirmationMail({
      ...envelope,
      confirmUrl: 'https://mandje.nl/api/confirm?lang=nl&t=voorbeeld',
      validDays: PENDING_DAYS,
    }),
  },
  'announcement-mail.png': {
    height: 600,
    mail: announcementMail({ ...envelope, announcement: parseAnnouncementText(announcement, 'nl.md') }),
  },
};

for (const [picture, { height, mail }] of Object.entries(MAIL_PICTURES))
  test(`docs/${picture}: a Dutch mail as a mail program shows its HTML part`, async ({ page }) => {
    const { html } = await simpleParser(mail.raw);
    expect(html, 'the mail has an HTML part').toBeTruthy();
    await page.setViewportSize({ width: 640, height });
    await page.setContent(html as string);
    const file = join(DOCS_DIR, picture);
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
    expectWritten(file);
  });
