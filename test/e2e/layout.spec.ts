/**
 * What a visitor on a narrow phone, or reading at 200% zoom, must never meet: a page that scrolls sideways,
 * text cut off by its box, a layout that shifts, in dark an axe violation; and every mail fits a phone.
 */
import type { Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { confirmationLink } from '#contract/confirmation';
import { leaveLink } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import { parseAnnouncementText } from '../../functions/announce/announcement-text';
import { newConfirmationToken, newLinkId } from '../../functions/confirm/confirmation-token';
import { leaveToken, newLeaveKey } from '../../functions/leave/leave-token';
import {
  announcementMail,
  type ComposedMail,
  confirmationMail,
  leaveLinkMail,
} from '../../functions/mailer/mail-layout';
import {
  containing,
  demoParts,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  openPage,
  SITE,
  test,
} from './support';

/** Runs in the page: lists what is too wide or cut off. */
function findLayoutProblems(): string[] {
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)}"`;
  const insideClippingBox = (element: Element) => {
    for (
      let parent = element.parentElement;
      parent && parent !== document.body;
      parent = parent.parentElement
    )
      if (getComputedStyle(parent).overflowX !== 'visible') return true;
    return false;
  };
  const problems: string[] = [];
  if (document.documentElement.scrollWidth > innerWidth) problems.push('the page scrolls sideways');
  for (const element of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    // Hidden, or visually hidden text (Tailwind's sr-only), clipped to nothing on purpose.
    if (style.display === 'none' || style.visibility === 'hidden' || rect.width <= 1 || rect.height <= 1)
      continue;
    if (style.clipPath === 'inset(50%)') continue;
    if ((rect.right > innerWidth + 0.5 || rect.left < -0.5) && !insideClippingBox(element))
      problems.push(`${describe(element)} spans ${Math.round(rect.left)} to ${Math.round(rect.right)} px`);
    // A box that hides what does not fit (no scrollbar to reach it), around text that does not fit.
    if (
      ['hidden', 'clip'].includes(style.overflowX) &&
      element.textContent?.trim() &&
      element.scrollWidth > element.clientWidth + 1
    )
      problems.push(
        `${describe(element)}: ${element.scrollWidth} px of text cut off in ${element.clientWidth} px`,
      );
  }
  return problems;
}

async function expectNothingTooWideOrClipped(page: Page): Promise<void> {
  // Text in the web font, as it is once the font has come.
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(findLayoutProblems)).toEqual([]);
}

/**
 * 200% zoom as the browser produces it: a 1280 × 800 window zoomed to 200% gives the page a viewport of
 * 640 × 400 CSS pixels with two device pixels to each, so media queries and line lengths all see 640 px.
 */
for (const { name, viewport, deviceScaleFactor } of [
  { name: '360 px', viewport: { width: 360, height: 800 }, deviceScaleFactor: 1 },
  { name: '1280 px at 200% zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
])
  for (const colorScheme of ['light', 'dark'] as const)
    test.describe(`layout at ${name}, ${colorScheme}`, () => {
      test.use({ viewport, deviceScaleFactor, colorScheme });

      // The dark theme is the palette itself, so every pairing of text and ground changes: axe checks each
      // kind of page again in dark (in light, each spec runs axe on the pages and states it walks).
      const check = async (page: Page) => {
        await expectNothingTooWideOrClipped(page);
        if (colorScheme === 'dark') await expectNoAxeViolations(page);
      };

      for (const { locale, path, copy } of LOCALE_CASES)
        test(`the ${locale} home page in either demo view and its basket dialog, the privacy notice, a result page and the leave page fit and cut off no text${colorScheme === 'dark' ? ', axe finding nothing' : ''}`, async ({
          page,
          baseURL,
        }) => {
          test.slow();
          await openPage(page, path);
          await check(page);
          const { basketTab, panel } = demoParts(page, copy);
          await basketTab.click();
          await expect(
            panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true }),
          ).toBeVisible();
          await check(page);
          await panel
            .getByRole('button', { name: containing(copy.demo.alternative.title('Albert Heijn')) })
            .click();
          await expect(
            page.getByRole('dialog', { name: dialogCopy[locale].basketDialog.title('Albert Heijn') }),
          ).toBeVisible();
          await check(page);
          // Any token shows the leave page: what it removes is decided only when the button is pressed.
          for (const address of [
            PAGE_PATH.privacy[locale],
            PAGE_PATH['waitlist-joined'][locale],
            leaveLink(baseURL as string, locale, 'A'.repeat(43)),
          ]) {
            await openPage(page, address);
            await check(page);
          }
        });
    });

/**
 * Adds up layout shifts from the start of the page, as Cumulative Layout Shift counts them: every
 * `layout-shift` entry except those right after the visitor's own input.
 */
function recordLayoutShifts() {
  const moved: string[] = [];
  (window as unknown as { __moved: string[] }).__moved = moved;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null }[];
    })[])
      if (!entry.hadRecentInput && entry.value > 0)
        moved.push(
          `${entry.value} at ${Math.round(entry.startTime)} ms: ${entry.sources.map(({ node }) => (node instanceof Element ? node.outerHTML.slice(0, 120) : String(node?.nodeName)))}`,
        );
  }).observe({ type: 'layout-shift', buffered: true });
}

const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test.describe('no layout shift at 390 px', () => {
  // A browser that asks for English: at / the offer of the English page appears as the page hydrates.
  test.use({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });

  for (const { locale, path, copy } of LOCALE_CASES)
    test(`${path} (${locale}) while loading, hydrating, scrolled through and loading the demo’s code`, async ({
      page,
    }) => {
      await page.addInitScript(recordLayoutShifts);
      await openPage(page, path);
      await page.waitForLoadState('networkidle');
      const screens = await page.evaluate(() =>
        Math.ceil(document.documentElement.scrollHeight / innerHeight),
      );
      for (let screen = 1; screen <= screens; screen += 1) {
        await page.evaluate((at) => window.scrollTo({ top: at * innerHeight, behavior: 'instant' }), screen);
        await nextFrames(page);
      }
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      // The demo's dialogs and the plus menu load their code when a pointer comes near.
      const { panel, toggle } = demoParts(page, copy);
      await panel.scrollIntoViewIfNeeded();
      await Promise.all([page.waitForResponse(/\/demo-dialogs-[\w-]+\.js$/), panel.hover()]);
      await Promise.all([page.waitForResponse(/\/plus-menu-entries-[\w-]+\.js$/), toggle.hover()]);
      await nextFrames(page);
      expect(await page.evaluate(() => (window as unknown as { __moved: string[] }).__moved)).toEqual([]);
    });
});

/** The links are as long as the real ones: a token made as the mailer makes it, on the site's origin. */
function links(language: Locale) {
  const linkId = newLinkId();
  return {
    confirmUrl: confirmationLink(SITE.url, language, newConfirmationToken(linkId).token),
    leaveUrl: leaveLink(SITE.url, language, leaveToken(linkId, newLeaveKey())),
  };
}
const envelope = (language: Locale) => ({
  to: 'ann@example.nl',
  language,
  mailFrom: SITE.contactEmail,
  contactEmail: SITE.contactEmail,
  brandName: 'Mandje',
  ...links(language),
});
const MAILS: Record<string, (language: Locale) => ComposedMail> = {
  confirmation: (language) => confirmationMail({ ...envelope(language), validDays: PENDING_DAYS }),
  'leave link': (language) => leaveLinkMail(envelope(language)),
  announcement: (language) =>
    announcementMail({
      ...envelope(language),
      announcement: parseAnnouncementText(
        `Subject: Mandje is er\n\nHoi! Mandje is er: ${SITE.url}/?utm_source=aankondiging&utm_medium=mail&utm_campaign=lancering\n`,
        `${language}.md`,
      ),
    }),
};

// The HTML part, read out of the raw message as a mail program reads it.
for (const [name, make] of Object.entries(MAILS))
  test(`the ${name} mail scrolls no wider than a 390 px screen, in ${LOCALES.join(' and ')}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const language of LOCALES) {
      const { html } = await simpleParser(make(language).raw);
      expect(typeof html, 'the mail has an HTML part').toBe('string');
      await page.setContent(html as string);
      const width = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(width, language).toEqual([390, 390]);
    }
  });
