/**
 * Every journey of the page, described once and walked in each engine (chromium.test.ts, firefox.test.ts,
 * webkit.test.ts): what a person does, found by role and visible text, and what they see. The e2e tier
 * (test/e2e, Chromium) checks each part in depth; this one proves the same page works in Firefox ESR and
 * WebKitGTK (Safari's engine) too, with its script and without.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { CONFIRM_PATH, CONFIRM_RESULT_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_RESULT_PATH } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { WAITLIST_RESULT_PATH } from '#contract/waitlist-api';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import { type Messages, messages } from '../../frontend/src/i18n/messages';
import { linkInMailTo } from '../e2e/mail-link';
import type { ColorScheme, Engine } from './engine';
import { type Target, type Visitor, visit } from './visitor';

const HOME: Record<Locale, string> = { nl: '/', en: '/en/' };

/** Anything containing `text`, any run of spaces matching any whitespace (Intl writes no-break spaces). */
const containing = (text: string) =>
  new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ +/g, '\\s+'));

let addressCount = 0;
const newAddress = (engine: string) => `engines.${engine}.${Date.now()}.${++addressCount}@example.nl`;

/** How a target looks, in a word or a few: what `shows` waits for, and what it reports when it does not come. */
async function howItLooks(target: Target): Promise<string> {
  const { count, visible, box } = await target.inspect();
  if (count === 0) {
    const scope = target.scope && (await target.scope.inspect());
    return scope ? `not there, in ${scope.count} holding "${scope.text.slice(0, 200)}"` : 'not there';
  }
  return visible ? 'shown' : `there (${count}) but hidden, at ${JSON.stringify(box)}`;
}

async function shows(target: Target): Promise<void> {
  await expect.poll(() => howItLooks(target), { message: `${target}` }).toBe('shown');
}

async function isGone(target: Target): Promise<void> {
  await expect.poll(() => target.count(), { message: `${target} is gone` }).toBe(0);
}

function signupForm(visitor: Visitor, copy: Messages) {
  const section = visitor.role('region', copy.signup.title);
  return {
    section,
    heading: section.role('heading', copy.signup.title, { level: 2 }),
    email: section.role('textbox', copy.signup.emailLabel),
    submit: section.role('button', copy.signup.submit),
  };
}

async function expectLanguage(visitor: Visitor, locale: Locale): Promise<void> {
  const copy = messages[locale];
  await expect.poll(() => visitor.role('heading', undefined, { level: 1 }).content()).toBe(copy.hero.title);
  expect(await visitor.location()).toBe(HOME[locale]);
  const { language, title } = await visitor.page();
  expect({ language, title }).toEqual({ language: locale, title: copy.meta.homeTitle });
}

/**
 * What is wrong with where a jump to the signup form left it, if anything: the section's top should be at
 * its scroll margin (or the page scrolled as far as it goes), so that its heading is in view, below anything
 * fixed at the top of the screen (a sticky header).
 */
async function signupLandingProblems(visitor: Visitor, copy: Messages): Promise<string[]> {
  const { section, heading } = signupForm(visitor, copy);
  const [page, sectionNow, headingNow] = await Promise.all([
    visitor.page(),
    section.inspect(['scroll-margin-top']),
    heading.inspect(),
  ]);
  if (!sectionNow.box || !headingNow.box) return ['the signup section or its heading is not there'];
  const margin = Number.parseFloat(sectionNow.styles['scroll-margin-top'] ?? '') || 0;
  const sectionTop = Math.round(sectionNow.box.top);
  const headingTop = Math.round(headingNow.box.top);
  const headingBottom = Math.round(headingNow.box.bottom);
  const scrolledToTheEnd = page.scrollY >= page.maxScrollY - 1 && sectionTop >= margin;
  const problems: string[] = [];
  if (Math.abs(sectionTop - margin) > 2 && !scrolledToTheEnd)
    problems.push(`the section's top is at ${sectionTop} px, not at its scroll margin (${margin} px)`);
  if (headingTop < page.coveredTop)
    problems.push(
      `the heading's top is at ${headingTop} px, above the screen or under its top ${page.coveredTop} px`,
    );
  if (headingBottom > page.innerHeight)
    problems.push(
      `the heading's bottom is at ${headingBottom} px, below the screen (${page.innerHeight} px)`,
    );
  return problems;
}

/** The jump has come to rest where it should, and stays there (a late correction or shift would show). */
async function expectSignupLanded(visitor: Visitor, copy: Messages): Promise<void> {
  await expect.poll(() => signupLandingProblems(visitor, copy), { timeout: 8_000 }).toEqual([]);
  await delay(400);
  expect(await signupLandingProblems(visitor, copy)).toEqual([]);
}

async function expectSignupOutOfView(visitor: Visitor, copy: Messages): Promise<void> {
  const { box } = await signupForm(visitor, copy).heading.inspect();
  expect(box?.top).toBeGreaterThan((await visitor.page()).innerHeight);
}

/** Fills in the signup form and sends it: without a script, the browser posts it to the API. */
async function joinWithoutScript(visitor: Visitor, locale: Locale, address: string): Promise<void> {
  const form = signupForm(visitor, messages[locale]);
  await form.email.fill(address);
  await form.submit.click();
}

export interface Journey {
  name: string;
  javaScript: boolean;
  /** The colour scheme the visitor prefers: light unless said. */
  colorScheme?: ColorScheme;
  walk(visitor: Visitor, context: { engine: string; outbox: string }): Promise<void>;
}

/**
 * The hero's join link lands the signup heading in view below the top: with the script, which also puts
 * the cursor in the field, or without it, a plain anchor.
 */
function heroJump(locale: Locale, javaScript: boolean): Journey {
  return {
    name: javaScript
      ? 'the hero’s join link lands the signup heading in view below the top, with the cursor in the field'
      : 'the hero’s join link, a plain anchor, lands the signup heading in view below the top',
    javaScript,
    async walk(visitor) {
      const copy = messages[locale];
      await visitor.open(HOME[locale]);
      await expectSignupOutOfView(visitor, copy);

      await visitor.role('banner').role('link', copy.hero.joinWaitlist).click();
      await expect.poll(() => visitor.location()).toBe(`${HOME[locale]}#signup`);
      await expectSignupLanded(visitor, copy);
      if (javaScript) expect(await signupForm(visitor, copy).email.isFocused()).toBe(true);
    },
  };
}

export const JOURNEYS: Journey[] = [
  {
    name: 'the hero’s EN and NL switch the language in place: text, address, lang and title',
    javaScript: true,
    async walk(visitor) {
      await visitor.open('/');
      await expectLanguage(visitor, 'nl');
      await visitor.markDocument();

      await visitor.role('navigation', messages.nl.common.languageNavLabel).role('link', /^EN\b/).click();
      await expectLanguage(visitor, 'en');
      await shows(visitor.role('region', messages.en.signup.title));

      await visitor.role('navigation', messages.en.common.languageNavLabel).role('link', /^NL\b/).click();
      await expectLanguage(visitor, 'nl');
      expect(await visitor.isMarkedDocument(), 'switched in place, not by loading a page').toBe(true);
    },
  },
  heroJump('nl', true),
  heroJump('en', false),
  {
    name: 'the demo switches between its two modes and opens and closes both dialogs',
    javaScript: true,
    async walk(visitor) {
      const copy = messages.en;
      const dialogs = dialogCopy.en;
      await visitor.open('/en/');
      const demo = visitor.role('region', copy.demo.title);
      const productTab = demo.role('tab', copy.demo.views.product);
      const basketTab = demo.role('tab', copy.demo.views.basket);
      const panel = demo.role('tabpanel');
      expect(await productTab.attribute('aria-selected')).toBe('true');
      await shows(panel.text(copy.demo.productQuestion));

      const milk = panel.role('button', containing(copy.demo.products.milk));
      await milk.click();
      const details = visitor.role('dialog', copy.demo.products.milk);
      await shows(details);
      await expect.poll(() => details.content()).toContain('Jumbo');
      await details.role('button', dialogs.close).click();
      await isGone(details);
      expect(await milk.isFocused(), 'focus back on the deal').toBe(true);

      await basketTab.click();
      await expect.poll(() => basketTab.attribute('aria-selected')).toBe('true');
      expect(await productTab.attribute('aria-selected')).toBe('false');
      await shows(panel.text(copy.demo.basketAnswer));

      const card = panel.role('button', containing(copy.demo.alternative.title('Albert Heijn')));
      await card.click();
      const basket = visitor.role('dialog', dialogs.basketDialog.title('Albert Heijn'));
      await shows(basket);
      expect(await basket.role('listitem').count()).toBe(4);
      await basket.role('button', dialogs.close).click();
      await isGone(basket);
      expect(await card.isFocused(), 'focus back on the card').toBe(true);

      await productTab.click();
      await shows(panel.text(copy.demo.productQuestion));
    },
  },
  {
    name: 'the plus menu opens, closes outside and on Escape, and its language entry switches to English',
    javaScript: true,
    async walk(visitor) {
      const copy = messages.nl;
      const menu = copy.demo.plusMenu;
      await visitor.open('/');
      const demo = visitor.role('region', copy.demo.title);
      const toggle = demo.role('button', menu.toggle);
      const scanReceipt = demo.role('button', menu.scanReceipt);
      expect(await toggle.attribute('aria-expanded')).toBe('false');

      await toggle.click();
      await shows(scanReceipt);
      expect(await toggle.attribute('aria-expanded')).toBe('true');
      expect(await demo.role('button', containing(menu.character)).isDisabled()).toBe(true);
      expect(await demo.role('button', containing(menu.location)).isDisabled()).toBe(true);

      await demo.role('heading', copy.demo.title, { level: 2 }).click();
      await isGone(scanReceipt);
      expect(await toggle.attribute('aria-expanded')).toBe('false');

      await toggle.click();
      await shows(scanReceipt);
      await visitor.press('Escape');
      await isGone(scanReceipt);
      expect(await toggle.isFocused(), 'focus back on the toggle').toBe(true);

      await toggle.click();
      await demo.role('button', copy.common.languageNames.en).click();
      await expectLanguage(visitor, 'en');
    },
  },
  {
    name: '“try it first” asks for a product, says it is on its way, then lands on the signup form',
    javaScript: true,
    async walk(visitor) {
      const copy = messages.en;
      const tryFirst = copy.demo.tryFirst;
      await visitor.open('/en/');
      const demo = visitor.role('region', copy.demo.title);
      const input = demo.role('textbox', tryFirst.label);

      await demo.role('button', tryFirst.submit).click();
      await shows(demo.text(tryFirst.required));
      expect(await input.isFocused()).toBe(true);

      await input.fill('milk, bread');
      await demo.role('button', tryFirst.submit).click();
      // Shown and disabled, seen in one look: the loading state lasts two seconds.
      const loading = demo.role('button', tryFirst.loading);
      await expect
        .poll(
          async () => {
            const { visible, disabled } = await loading.inspect();
            return { visible, disabled };
          },
          { message: `${loading}` },
        )
        .toEqual({ visible: true, disabled: true });

      await expectSignupLanded(visitor, copy);
      expect(await signupForm(visitor, copy).email.isFocused()).toBe(true);
    },
  },
  {
    name: 'the signup form says what is wrong with an address, then joins it, then finds it already registered',
    javaScript: true,
    async walk(visitor, { engine }) {
      const copy = messages.nl;
      const form = signupForm(visitor, copy);
      await visitor.open('/');

      await form.submit.click();
      await shows(form.section.text(copy.signup.errors.empty));
      expect(await form.email.attribute('aria-invalid')).toBe('true');

      await form.email.fill('not-an-address');
      await form.submit.click();
      await shows(form.section.text(copy.signup.errors.malformed(copy.signup.exampleEmail)));

      const address = newAddress(engine);
      await form.email.fill(address);
      await form.submit.click();
      const joined = visitor.role('status').text(copy.signup.notices.successBody);
      await shows(joined);
      await shows(visitor.role('status').text(address));

      await visitor.role('status').role('button', copy.signup.changeAddress).click();
      await expect.poll(() => form.email.value()).toBe(address);
      await form.submit.click();
      await shows(visitor.role('status').text(copy.signup.notices.duplicateBody));
    },
  },
  {
    name: 'a new signup confirms from the link in its mail, then leaves from the mail’s other link',
    javaScript: true,
    async walk(visitor, { engine, outbox }) {
      const copy = messages.en;
      const form = signupForm(visitor, copy);
      const address = newAddress(engine);
      await visitor.open('/en/');
      await form.email.fill(address);
      await form.submit.click();
      await shows(visitor.role('status').text(address));

      await visitor.open(await linkInMailTo(outbox, address, CONFIRM_PATH));
      await shows(visitor.role('heading', copy.meta.confirmTitle, { level: 1 }));
      await visitor.role('button', confirmCopy.en.page.button).click();
      await shows(visitor.role('heading', copy.meta.confirmResultTitles['confirm-confirmed']));

      await visitor.open(await linkInMailTo(outbox, address, LEAVE_PATH));
      await shows(visitor.role('heading', copy.meta.leaveTitle, { level: 1 }));
      await visitor.role('button', leaveCopy.en.page.button).click();
      await shows(visitor.role('heading', copy.meta.leaveResultTitles['leave-done']));
    },
  },
  {
    name: 'an unknown address shows the not-found page, logs the path, and its link leads home',
    javaScript: true,
    async walk(visitor) {
      const copy = messages.nl;
      await visitor.open('/no-such-page');
      await shows(visitor.text(copy.notFound.code));
      await shows(visitor.role('heading', copy.notFound.title, { level: 1 }));
      await expect
        .poll(async () => (await visitor.page()).consoleErrors.some((line) => line.includes('/no-such-page')))
        .toBe(true);

      await visitor.role('link', copy.notFound.homeLink).click();
      await expectLanguage(visitor, 'nl');
    },
  },
  {
    // A graphic's 3:1 (WCAG 1.4.11). WebKit does not tell an image the page's colour scheme.
    name: 'in the dark theme, the logo’s name stands out from the header and the footer',
    javaScript: true,
    colorScheme: 'dark',
    async walk(visitor) {
      await visitor.open('/');
      expect((await visitor.page()).colorScheme).toBe('dark');
      for (const landmark of ['banner', 'contentinfo']) {
        const name = visitor.role(landmark).role('img', BRAND_NAME);
        await expect.poll(() => name.inkContrast(), { message: `${name}` }).toBeGreaterThanOrEqual(3);
      }
    },
  },
  {
    name: 'the form joins on a result page; a refused address leads back to the form, in view',
    javaScript: false,
    async walk(visitor, { engine }) {
      const copy = messages.nl;
      await visitor.open('/');
      await joinWithoutScript(visitor, 'nl', newAddress(engine));
      await expect.poll(() => visitor.location()).toBe(WAITLIST_RESULT_PATH.joined.nl);
      await shows(visitor.role('heading', copy.meta.waitlistResultTitles['waitlist-joined'], { level: 1 }));

      await visitor.open('/');
      // The browser's own check lets `ann@example` through; the page's rule asks for a dot after the @.
      await joinWithoutScript(visitor, 'nl', 'ann@example');
      await expect.poll(() => visitor.location()).toBe(WAITLIST_RESULT_PATH['invalid-email'].nl);
      await shows(visitor.text(copy.signup.errors.malformed(copy.signup.exampleEmail)));

      await visitor.role('link', resultCopy.nl.backToForm).click();
      await expect.poll(() => visitor.location()).toBe('/#signup');
      await expectSignupLanded(visitor, copy);
    },
  },
  {
    name: 'a signup confirms and leaves from the links in its mail',
    javaScript: false,
    async walk(visitor, { engine, outbox }) {
      const copy = messages.en;
      const address = newAddress(engine);
      await visitor.open('/en/');
      await joinWithoutScript(visitor, 'en', address);
      await expect.poll(() => visitor.location()).toBe(WAITLIST_RESULT_PATH.joined.en);

      await visitor.open(await linkInMailTo(outbox, address, CONFIRM_PATH));
      await visitor.role('button', confirmCopy.en.page.button).click();
      await expect.poll(() => visitor.location()).toBe(CONFIRM_RESULT_PATH.confirmed.en);
      await shows(visitor.role('heading', copy.meta.confirmResultTitles['confirm-confirmed'], { level: 1 }));

      await visitor.open(await linkInMailTo(outbox, address, LEAVE_PATH));
      await visitor.role('button', leaveCopy.en.page.button).click();
      await expect.poll(() => visitor.location()).toBe(LEAVE_RESULT_PATH.done.en);
      await shows(visitor.role('heading', copy.meta.leaveResultTitles['leave-done'], { level: 1 }));
    },
  },
];

/** Walks every journey in a fresh tab of the engine `start` gives, with the page's script first, then without. */
export function walkJourneysIn(start: () => Engine): void {
  const engine = start();
  afterAll(() => engine.close());
  for (const javaScript of [true, false]) {
    describe(`${engine.name}, ${javaScript ? 'with' : 'without'} the page’s script`, () => {
      for (const journey of JOURNEYS.filter((each) => each.javaScript === javaScript)) {
        test(journey.name, () =>
          visit(
            engine,
            inject('siteUrl'),
            { javaScript, colorScheme: journey.colorScheme ?? 'light' },
            (visitor) => journey.walk(visitor, { engine: engine.name, outbox: inject('outbox') }),
          ),
        );
      }
    });
  }
}
