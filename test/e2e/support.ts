import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '#contract/locales';
import { securityHeaders } from '#contract/security-headers';
import { readSiteConfig } from '#contract/site-config';
import { savingsClaims } from '../../frontend/src/config/savings-claims';
import { fillInText } from '../../frontend/src/i18n/fill-in';
import { formattersFor } from '../../frontend/src/i18n/format';
import { type Messages, messages } from '../../frontend/src/i18n/messages';
import { isInteractive, markWhenInteractive } from './in-page';

/** Where people find the screenshots (outside Playwright's own output folder). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results/screenshots');
/** The runner's outbox (playwright.config.ts chooses its data folder). */
export const OUTBOX = join(process.env.MANDJE_E2E_DATA_DIR as string, 'outbox');

/** The site facts the page is built with, read as the build reads them. */
const siteConfig = readSiteConfig(process.env);
export const SITE = {
  url: siteConfig.siteUrl,
  contactEmail: siteConfig.contactEmail,
  social: siteConfig.socialProfile,
} as const;

/** The response headers every answer carries, locally as in production. */
export const SECURITY_HEADER_NAMES = Object.keys(securityHeaders());

let addressCount = 0;
/** A new address, unique across runs and workers. */
export const newAddress = (label: string) =>
  `e2e.${label}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

/**
 * The demo's figures as a visitor reads them, written out (not computed with the page's own formatters) so
 * that a formatting bug shows. Intl puts a no-break space after the euro sign in Dutch.
 */
const FIGURES = {
  nl: {
    milk: { bonus: '€ 1,20', original: '€ 1,65', savings: '€ 0,45' },
    basket: { total: '€ 12,50', savings: '€ 4,20' },
    alternative: { total: '€ 18,75', savings: '€ 2,25', gap: '€ 6,25' },
    valid: ['25 aug.', '31 aug.'],
    week: '25–31 aug.',
  },
  en: {
    milk: { bonus: '€1.20', original: '€1.65', savings: '€0.45' },
    basket: { total: '€12.50', savings: '€4.20' },
    alternative: { total: '€18.75', savings: '€2.25', gap: '€6.25' },
    valid: ['25 Aug', '31 Aug'],
    week: '25–31 Aug',
  },
} as const;

/** A language's copy as the page shows it: the savings claims filled in with the page's own formatter. */
function withClaims(locale: Locale): Messages {
  const copy = messages[locale];
  const fill = (text: string) => fillInText(text, savingsClaims(formattersFor(locale)));
  const { money } = copy.why.points;
  return {
    ...copy,
    meta: { ...copy.meta, homeDescription: fill(copy.meta.homeDescription) },
    hero: { ...copy.hero, subtitle: fill(copy.hero.subtitle) },
    why: { ...copy.why, points: { ...copy.why.points, money: { ...money, body: fill(money.body) } } },
  };
}

const localeCase = (locale: Locale, path: string, other: Locale, ogLocale: string) => ({
  locale,
  path,
  copy: withClaims(locale),
  other,
  ogLocale,
  figures: FIGURES[locale],
});
export type LocaleCase = ReturnType<typeof localeCase>;
export const NL = localeCase('nl', '/', 'en', 'nl_NL');
export const EN = localeCase('en', '/en/', 'nl', 'en_GB');
export const LOCALE_CASES = [NL, EN] as const;

/** The four deals at Jumbo, in the order the basket view lists them, with the discount each shows. */
export const BASKET_DEALS = [
  { product: 'milk', discount: '27%' },
  { product: 'bread', discount: '16%' },
  { product: 'pasta', discount: '18%' },
  { product: 'apples', discount: '30%' },
] as const;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Contains `text`, any space matching any whitespace (Intl writes no-break spaces in Dutch prices). */
export const containing = (text: string) => new RegExp(escapeRegExp(text).replace(/ +/g, '\\s+'));

export async function waitUntilInteractive(page: Page): Promise<void> {
  await page.waitForFunction(isInteractive, undefined, { timeout: 10_000 });
}

/** Opens a path and waits until the page's script has taken over, so clicks and typing reach React. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await waitUntilInteractive(page);
  return response;
}

/** `test` whose pages carry the interactivity marker. */
export const test = base.extend({
  context: async ({ context }, use) => {
    await context.addInitScript(markWhenInteractive);
    await use(context);
  },
});
export { expect };

/** Console errors and warnings, uncaught errors and failed requests, from now on. */
export function recordTrouble(page: Page): string[] {
  const trouble: string[] = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) trouble.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => trouble.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => trouble.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) trouble.push(`${response.status()}: ${response.url()}`);
  });
  return trouble;
}

/** Runs axe with the WCAG 2.1 A/AA and best-practice rules and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
  let builder = new AxeBuilder({ page }).withTags(tags);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const readable = violations.map(({ id, help, nodes }) => ({
    id,
    help,
    elements: nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
  }));
  expect(readable, 'axe violations').toEqual([]);
}

/** The demo section, its view tabs and the panel under them. */
export function demoParts(page: Page, copy: Messages) {
  const section = page.getByRole('region', { name: copy.demo.title });
  const tablist = section.getByRole('tablist', { name: copy.demo.viewSelectorLabel });
  return {
    section,
    tablist,
    productTab: tablist.getByRole('tab', { name: copy.demo.views.product, exact: true }),
    basketTab: tablist.getByRole('tab', { name: copy.demo.views.basket, exact: true }),
    panel: section.getByRole('tabpanel'),
    toggle: section.getByRole('button', { name: copy.demo.plusMenu.toggle }),
    scanReceipt: section.getByRole('button', { name: copy.demo.plusMenu.scanReceipt, exact: true }),
  };
}

/** A deal in the demo: a button named after its product. */
export const dealButton = (
  scope: Page | Locator,
  copy: Messages,
  product: keyof Messages['demo']['products'],
) => scope.getByRole('button', { name: containing(copy.demo.products[product]) });

/** Opens the milk deal's details by clicking it; returns the deal (where focus returns) and the dialog. */
export async function openMilkDetails(page: Page, copy: Messages) {
  const milk = dealButton(demoParts(page, copy).panel, copy, 'milk');
  await milk.click();
  const dialog = page.getByRole('dialog', { name: copy.demo.products.milk });
  await expect(dialog).toBeVisible();
  return { milk, dialog };
}

export function signupParts(page: Page, copy: Messages) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    section,
    form: section.locator('form'),
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
    success: page.getByRole('status').filter({ hasText: copy.signup.notices.successTitle }),
  };
}

/** Fills in the signup form and sends it; without a script, waits for the result page. */
export async function joinWaitlist(
  page: Page,
  copy: Messages,
  address: string,
  javaScript = true,
): Promise<void> {
  const { email, submit } = signupParts(page, copy);
  await email.fill(address);
  await Promise.all([javaScript || page.waitForURL(/\/waitlist\//), submit.click()]);
}

/** Whether the signup section sits where an anchor jump puts it (or as close as the page scrolls), at rest. */
export async function signupIsScrolledTo(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const section = document.getElementById('signup');
    if (!section) return false;
    const scrollMargin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
    const sectionTop = section.getBoundingClientRect().top + window.scrollY;
    const maxScroll = document.documentElement.scrollHeight - window.innerHeight;
    return Math.abs(window.scrollY - Math.min(sectionTop - scrollMargin, maxScroll)) <= 2;
  });
}
