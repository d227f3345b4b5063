import { resolve } from 'node:path';
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

/** Where people find the screenshots (repo-root relative, outside Playwright's own output folder). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results/screenshots');

/** The site facts the page is built with (contact address, social profile, canonical origin): the same reading. */
const siteConfig = readSiteConfig(process.env);
export const SITE = {
  url: siteConfig.siteUrl,
  contactEmail: siteConfig.contactEmail,
  social: siteConfig.socialProfile,
} as const;

/** The response headers every answer carries, locally as in production (contract/security-headers.ts). */
export const SECURITY_HEADER_NAMES = Object.keys(securityHeaders());

export const SUPERMARKET_NAMES = [
  'Albert Heijn',
  'Jumbo',
  'Lidl',
  'Plus',
  'Aldi',
  'Hoogvliet',
  'SPAR',
  'Ekoplaza',
  'Dirk',
  'Vomar',
] as const;

/**
 * The demo's figures as a visitor reads them in each language. They are written out (not computed with the
 * page's own formatters) so that a formatting bug shows up here. Intl puts a no-break space after the euro
 * sign in Dutch; Playwright's text matching treats it as a space.
 */
interface DemoFigures {
  milkBonus: string;
  milkOriginal: string;
  milkSavings: string;
  milkUnitPrice: string;
  basketTotal: string;
  basketSavings: string;
  alternativeTotal: string;
  alternativeSavings: string;
  alternativeItems: { bonusPrice: string; savings: string }[];
  breadUnitPrice: string;
  validFrom: string;
  validUntil: string;
}

export interface LocaleCase {
  locale: Locale;
  path: string;
  copy: Messages;
  other: Locale;
  ogLocale: string;
  figures: DemoFigures;
}

/**
 * A language's copy as the page shows it: the savings claims' `{weekly}` and `{yearly}` filled in with the
 * page's own formatter (config/savings-claims.ts), so a test finds the sentence a visitor reads.
 */
function withClaims(copy: Messages, locale: 'nl' | 'en'): Messages {
  const claims = savingsClaims(formattersFor(locale));
  const fill = (text: string) => fillInText(text, claims);
  return {
    ...copy,
    meta: { ...copy.meta, homeDescription: fill(copy.meta.homeDescription) },
    hero: { ...copy.hero, subtitle: fill(copy.hero.subtitle) },
    why: {
      ...copy.why,
      points: {
        ...copy.why.points,
        money: { ...copy.why.points.money, body: fill(copy.why.points.money.body) },
      },
    },
  };
}

export const LOCALE_CASES: readonly LocaleCase[] = [
  {
    locale: 'nl',
    path: '/',
    copy: withClaims(messages.nl, 'nl'),
    other: 'en',
    ogLocale: 'nl_NL',
    figures: {
      milkBonus: '€ 1,20',
      milkOriginal: '€ 1,65',
      milkSavings: '€ 0,45',
      milkUnitPrice: '€ 1,20 per liter',
      basketTotal: '€ 12,50',
      basketSavings: '€ 4,20',
      alternativeTotal: '€ 18,75',
      alternativeSavings: '€ 2,25',
      alternativeItems: [
        { bonusPrice: '€ 1,59', savings: '€ 0,20' },
        { bonusPrice: '€ 3,99', savings: '€ 0,50' },
        { bonusPrice: '€ 2,49', savings: '€ 0,30' },
        { bonusPrice: '€ 10,68', savings: '€ 1,25' },
      ],
      breadUnitPrice: '€ 4,15 per kilo',
      validFrom: '25 aug.',
      validUntil: '31 aug.',
    },
  },
  {
    locale: 'en',
    path: '/en/',
    copy: withClaims(messages.en, 'en'),
    other: 'nl',
    ogLocale: 'en_GB',
    figures: {
      milkBonus: '€1.20',
      milkOriginal: '€1.65',
      milkSavings: '€0.45',
      milkUnitPrice: '€1.20 per litre',
      basketTotal: '€12.50',
      basketSavings: '€4.20',
      alternativeTotal: '€18.75',
      alternativeSavings: '€2.25',
      alternativeItems: [
        { bonusPrice: '€1.59', savings: '€0.20' },
        { bonusPrice: '€3.99', savings: '€0.50' },
        { bonusPrice: '€2.49', savings: '€0.30' },
        { bonusPrice: '€10.68', savings: '€1.25' },
      ],
      breadUnitPrice: '€4.15 per kg',
      validFrom: '25 Aug',
      validUntil: '31 Aug',
    },
  },
];

export const NL = LOCALE_CASES[0] as LocaleCase;
export const EN = LOCALE_CASES[1] as LocaleCase;

/** The four deals at Jumbo, in the order the basket view lists them, with the discount each shows. */
export const BASKET_DEALS = [
  { product: 'milk', discount: '27%' },
  { product: 'bread', discount: '16%' },
  { product: 'pasta', discount: '18%' },
  { product: 'apples', discount: '30%' },
] as const;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches text that contains `text` anywhere (for accessible names and descriptions that say more). Any
 * space matches any whitespace, as Intl writes a no-break space in Dutch prices and regular expressions,
 * unlike Playwright's string matching, do not normalise it.
 */
export const containing = (text: string) => new RegExp(escapeRegExp(text).replace(/ +/g, '\\s+'));

const prepared = new WeakSet<Page>();

/** Installs the interactivity marker; call it once for pages made outside the `page` fixture. */
export async function prepare(page: Page): Promise<void> {
  if (prepared.has(page)) return;
  prepared.add(page);
  await page.addInitScript(markWhenInteractive);
}

export async function waitUntilInteractive(page: Page): Promise<void> {
  await page.waitForFunction(isInteractive, undefined, { timeout: 10_000 });
}

/** Opens a path and waits until the page's script has taken over, so clicks and typing reach React. */
export async function openPage(page: Page, path: string) {
  await prepare(page);
  const response = await page.goto(path);
  await waitUntilInteractive(page);
  return response;
}

/** `test` whose `page` already carries the interactivity marker. */
export const test = base.extend({
  page: async ({ page }, use) => {
    await prepare(page);
    await use(page);
  },
});
export { expect };

export interface ConsoleRecord {
  errors: string[];
  warnings: string[];
  pageErrors: string[];
}

/** Collects console errors and warnings and uncaught page errors from now on. */
export function recordConsole(page: Page): ConsoleRecord {
  const record: ConsoleRecord = { errors: [], warnings: [], pageErrors: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') record.errors.push(message.text());
    if (message.type() === 'warning') record.warnings.push(message.text());
  });
  page.on('pageerror', (error) => record.pageErrors.push(error.message));
  return record;
}

/** Runs axe with the WCAG 2.1 A/AA and best-practice rules and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'best-practice',
  ]);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const readable = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.map((node) => ({
      target: node.target.join(' '),
      summary: node.failureSummary,
    })),
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
  };
}

/** A deal row in the demo: a button named after its product. */
/**
 * Opens the milk deal's details dialog in the product view by clicking the deal, as a visitor would, and
 * returns the deal button (where focus returns) and the open dialog.
 */
export async function openMilkDetails(
  page: Page,
  copy: Messages,
): Promise<{ milk: Locator; dialog: Locator }> {
  const milk = dealButton(demoParts(page, copy).panel, copy, 'milk');
  await milk.click();
  const dialog = page.getByRole('dialog', { name: copy.demo.products.milk });
  await expect(dialog).toBeVisible();
  return { milk, dialog };
}

export function dealButton(
  scope: Page | Locator,
  copy: Messages,
  product: keyof Messages['demo']['products'],
) {
  return scope.getByRole('button', { name: containing(copy.demo.products[product]) });
}

/**
 * Whether the signup section sits where an anchor jump puts it: its top at the scroll margin (1rem), or as
 * close as the page can scroll. True only once a smooth scroll has come to rest there.
 */
export async function signupIsScrolledTo(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const section = document.getElementById('signup');
    if (!section) return false;
    const scrollMargin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
    const sectionTop = section.getBoundingClientRect().top + window.scrollY;
    const maxScroll = document.documentElement.scrollHeight - window.innerHeight;
    const target = Math.min(sectionTop - scrollMargin, maxScroll);
    return Math.abs(window.scrollY - target) <= 2;
  });
}
