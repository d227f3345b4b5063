import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { parseAnnouncementText } from '../../functions/announce/announcement-text';
import { announcementMail } from '../../functions/mailer/announcement-mail';
import { confirmationMail } from '../../functions/mailer/confirmation-mail';
import { demoParts, expect, LOCALE_CASES, openPage, SCREENSHOT_DIR, test } from './support';

// Screenshots for people to look at (test-results/screenshots/); nothing is compared pixel by pixel.
const WIDTHS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const DOCS_DIR = join(import.meta.dirname, '../../docs');
const README_PICTURES: Record<string, string> = {
  'nl-1280-light': 'screenshot.png',
  'nl-390-dark': 'screenshot-dark-390.png',
};

function expectWritten(file: string) {
  expect(statSync(file).size, `${file} is not empty`).toBeGreaterThan(1_000);
}

for (const { locale, path, copy } of LOCALE_CASES) {
  for (const viewport of WIDTHS) {
    for (const colorScheme of SCHEMES) {
      test(`full-page screenshot of ${path} at ${viewport.width} px, ${colorScheme} (${locale})`, async ({
        page,
      }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        await openPage(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
        // Sections out of sight are skipped until they near the viewport (content-visibility): render all.
        await page.evaluate(() => {
          document.documentElement.dataset.render = 'all';
        });
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const file = join(SCREENSHOT_DIR, `${locale}-${viewport.width}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        expectWritten(file);
        // The README's two pictures of the page.
        const readmePicture = README_PICTURES[`${locale}-${viewport.width}-${colorScheme}`];
        if (readmePicture) copyFileSync(file, join(DOCS_DIR, readmePicture));
      });
    }
  }

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

test('picture of the Dutch confirmation mail for the README, as a mail program shows its HTML part', async ({
  page,
}) => {
  const mail = confirmationMail({
    to: 'ann@example.nl',
    language: 'nl',
    mailFrom: 'hallo@mandje.nl',
    contactEmail: 'hallo@mandje.nl',
    brandName: 'Mandje',
    now: new Date('2026-11-24T10:00:00Z'),
    messageId: 'readme-picture@mandje.nl',
    confirmUrl: 'https://mandje.nl/api/confirm?lang=nl&t=voorbeeld',
    leaveUrl: 'https://mandje.nl/api/leave?lang=nl&t=voorbeeld',
    validDays: PENDING_DAYS,
  });
  const { html } = await simpleParser(mail.raw);
  expect(html, 'the mail has an HTML part').toBeTruthy();
  await page.setViewportSize({ width: 640, height: 800 });
  await page.setContent(html as string);
  const file = join(DOCS_DIR, 'confirmation-mail.png');
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  expectWritten(file);
});

test('picture of a Dutch announcement for the operating guide, as a mail program shows its HTML part', async ({
  page,
}) => {
  const mail = announcementMail({
    to: 'ann@example.nl',
    language: 'nl',
    mailFrom: 'hallo@mandje.nl',
    contactEmail: 'hallo@mandje.nl',
    brandName: 'Mandje',
    now: new Date('2026-11-24T10:00:00Z'),
    messageId: 'launch.picture@mandje.nl',
    leaveUrl: 'https://mandje.nl/api/leave?lang=nl&t=voorbeeld',
    announcement: parseAnnouncementText(
      [
        'Subject: Mandje is er: bespaar vanaf vandaag op je boodschappen',
        '',
        'Hoi! Je stond op de wachtlijst, en het wachten is voorbij: Mandje is er.',
        '',
        'Vraag Mandje waar je boodschappen deze week het voordeligst zijn, en zie meteen wat je bespaart.',
        '',
        '[Open Mandje](https://mandje.nl/)',
      ].join('\n'),
      'nl.md',
    ),
  });
  const { html } = await simpleParser(mail.raw);
  expect(html, 'the mail has an HTML part').toBeTruthy();
  await page.setViewportSize({ width: 640, height: 600 });
  await page.setContent(html as string);
  const file = join(DOCS_DIR, 'announcement-mail.png');
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  expectWritten(file);
});
