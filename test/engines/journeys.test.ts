// The journeys where an engine could differ (scrolling, focus, dialogs, switching language in place, posts
// without a script, the dark theme), in Firefox ESR and WebKitGTK; Chromium walks them all in test/e2e.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { WAITLIST_RESULT_PATH } from '#contract/waitlist-api';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import { type Messages, messages } from '../../frontend/src/i18n/messages';
import { linkInMailTo } from '../e2e/mail-link';
import { firefox, webkit } from './drivers';
import { type Target, type Visitor, visit } from './visitor';

const HOME: Record<Locale, string> = { nl: '/', en: '/en/' };

/** Anything containing `text`, any run of spaces matching any whitespace (Intl writes no-break spaces). */
const containing = (text: string) =>
  new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ +/g, '\\s+'));

let addressCount = 0;
const newAddress = (engine: string) => `engines.${engine}.${Date.now()}.${++addressCount}@example.nl`;

const attribute = async (target: Target, name: string) => (await target.inspect()).attributes[name];
const focused = async (target: Target) => (await target.inspect()).focused;

async function shows(target: Target): Promise<void> {
  const look = async () => {
    const { count, visible } = await target.inspect();
    return count === 0 ? 'not there' : visible ? 'shown' : 'hidden';
  };
  await expect.poll(look, { message: `${target}` }).toBe('shown');
}

async function isGone(target: Target): Promise<void> {
  await expect.poll(async () => (await target.inspect()).count, { message: `${target} is gone` }).toBe(0);
}

function signupForm(visitor: Visitor, copy: Messages) {
  const section = visitor.role('region', copy.signup.title);
  return {
    section,
    heading: section.role('heading', copy.signup.title, 2),
    email: section.role('textbox', copy.signup.emailLabel),
    submit: section.role('button', copy.signup.submit),
  };
}

async function expectLanguage(visitor: Visitor, locale: Locale): Promise<void> {
  const copy = messages[locale];
  await expect
    .poll(async () => (await visitor.role('heading', undefined, 1).inspect()).text)
    .toBe(copy.hero.title);
  expect(await visitor.location()).toBe(HOME[locale]);
  const { language, title } = await visitor.page();
  expect({ language, title }).toEqual({ language: locale, title: copy.meta.homeTitle });
}

// What is wrong with where a jump to the signup form left it: the section's top should be at its scroll
// margin (or the page scrolled as far as it goes), its heading in view below anything fixed at the top.
async function signupLandingProblems(visitor: Visitor, copy: Messages): Promise<string[]> {
  const { section, heading } = signupForm(visitor, copy);
  const [page, { box: sectionBox, scrollMarginTop }, { box }] = await Promise.all([
    visitor.page(),
    section.inspect(),
    heading.inspect(),
  ]);
  if (!sectionBox || !box) return ['the signup section or its heading is not there'];
  const top = Math.round(sectionBox.top);
  const atTheEnd = page.scrollY >= page.maxScrollY - 1 && top >= scrollMarginTop;
  const problems: string[] = [];
  if (Math.abs(top - scrollMarginTop) > 2 && !atTheEnd)
    problems.push(`the section's top is at ${top} px, not at its scroll margin (${scrollMarginTop} px)`);
  if (Math.round(box.top) < page.coveredTop)
    problems.push(`the heading's top is at ${Math.round(box.top)} px, under the top ${page.coveredTop} px`);
  if (Math.round(box.bottom) > page.innerHeight)
    problems.push(`the heading's bottom is at ${Math.round(box.bottom)} px, below the screen`);
  return problems;
}

/** The jump has come to rest where it should, and stays there (a late correction or shift would show). */
async function expectSignupLanded(visitor: Visitor, copy: Messages): Promise<void> {
  await expect.poll(() => signupLandingProblems(visitor, copy), { timeout: 8_000 }).toEqual([]);
  await delay(400);
  expect(await signupLandingProblems(visitor, copy)).toEqual([]);
}

interface Journey {
  name: string;
  javaScript?: false;
  dark?: true;
  walk(visitor: Visitor, context: { engine: string; outbox: string }): Promise<void>;
}

const JOURNEYS: Journey[] = [
  {
    name: 'the hero’s join link lands the signup heading in view below the top, the cursor in the field',
    async walk(visitor) {
      const copy = messages.nl;
      await visitor.open('/');
      const { box } = await signupForm(visitor, copy).heading.inspect();
      expect(box?.top).toBeGreaterThan((await visitor.page()).innerHeight);

      await visitor.role('banner').role('link', copy.hero.joinWaitlist).click();
      await expect.poll(() => visitor.location()).toBe('/#signup');
      await expectSignupLanded(visitor, copy);
      expect(await focused(signupForm(visitor, copy).email)).toBe(true);
    },
  },
  {
    name: 'the demo switches between its two modes and opens and closes both dialogs',
    async walk(visitor) {
      const copy = messages.en;
      const dialogs = dialogCopy.en;
      await visitor.open('/en/');
      const demo = visitor.role('region', copy.demo.title);
      const productTab = demo.role('tab', copy.demo.views.product);
      const basketTab = demo.role('tab', copy.demo.views.basket);
      const panel = demo.role('tabpanel');
      expect(await attribute(productTab, 'aria-selected')).toBe('true');
      await shows(panel.text(copy.demo.productQuestion));

      const milk = panel.role('button', containing(copy.demo.products.milk));
      await milk.click();
      const details = visitor.role('dialog', copy.demo.products.milk);
      await shows(details);
      await expect.poll(async () => (await details.inspect()).text).toContain('Jumbo');
      await details.role('button', dialogs.close).click();
      await isGone(details);
      expect(await focused(milk), 'focus back on the deal').toBe(true);

      await basketTab.click();
      await expect.poll(() => attribute(basketTab, 'aria-selected')).toBe('true');
      expect(await attribute(productTab, 'aria-selected')).toBe('false');
      await shows(panel.text(copy.demo.basketAnswer));

      const card = panel.role('button', containing(copy.demo.alternative.title('Albert Heijn')));
      await card.click();
      const basket = visitor.role('dialog', dialogs.basketDialog.title('Albert Heijn'));
      await shows(basket);
      expect((await basket.role('listitem').inspect()).count).toBe(4);
      await basket.role('button', dialogs.close).click();
      await isGone(basket);
      expect(await focused(card), 'focus back on the card').toBe(true);

      await productTab.click();
      await shows(panel.text(copy.demo.productQuestion));
    },
  },
  {
    name: 'the plus menu opens, closes outside and on Escape; its language entry and the hero’s NL switch the language in place: text, address, lang and title',
    async walk(visitor) {
      const copy = messages.nl;
      const menu = copy.demo.plusMenu;
      await visitor.open('/');
      await expectLanguage(visitor, 'nl');
      await visitor.markDocument();
      const demo = visitor.role('region', copy.demo.title);
      const toggle = demo.role('button', menu.toggle);
      const scanReceipt = demo.role('button', menu.scanReceipt);
      expect(await attribute(toggle, 'aria-expanded')).toBe('false');

      await toggle.click();
      await shows(scanReceipt);
      expect(await attribute(toggle, 'aria-expanded')).toBe('true');
      for (const entry of [menu.character, menu.location])
        expect((await demo.role('button', containing(entry)).inspect()).disabled).toBe(true);

      await demo.role('heading', copy.demo.title, 2).click();
      await isGone(scanReceipt);
      expect(await attribute(toggle, 'aria-expanded')).toBe('false');

      await toggle.click();
      await shows(scanReceipt);
      await visitor.tab.pressEscape();
      await isGone(scanReceipt);
      expect(await focused(toggle), 'focus back on the toggle').toBe(true);

      await toggle.click();
      await demo.role('button', copy.common.languageNames.en).click();
      await expectLanguage(visitor, 'en');
      await shows(visitor.role('region', messages.en.signup.title));

      await visitor.role('navigation', messages.en.common.languageNavLabel).role('link', /^NL\b/).click();
      await expectLanguage(visitor, 'nl');
      expect(await visitor.isMarkedDocument(), 'switched in place, not by loading a page').toBe(true);
    },
  },
  {
    name: '“try it first” asks for a product, says it is on its way, then lands on the signup form',
    async walk(visitor) {
      const copy = messages.en;
      const tryFirst = copy.demo.tryFirst;
      await visitor.open('/en/');
      const demo = visitor.role('region', copy.demo.title);
      const input = demo.role('textbox', tryFirst.label);

      await demo.role('button', tryFirst.submit).click();
      await shows(demo.text(tryFirst.required));
      expect(await focused(input)).toBe(true);

      await input.fill('milk, bread');
      await demo.role('button', tryFirst.submit).click();
      // Shown and disabled, seen in one look: the loading state lasts two seconds.
      const loading = demo.role('button', tryFirst.loading);
      await expect
        .poll(() => loading.inspect(), { message: `${loading}` })
        .toMatchObject({ visible: true, disabled: true });

      await expectSignupLanded(visitor, copy);
      expect(await focused(signupForm(visitor, copy).email)).toBe(true);
    },
  },
  {
    name: 'the signup form says what is wrong with an address, joins it, finds it already registered; the mail’s links confirm, then leave',
    async walk(visitor, { engine, outbox }) {
      const copy = messages.nl;
      const form = signupForm(visitor, copy);
      await visitor.open('/');

      await form.submit.click();
      await shows(form.section.text(copy.signup.errors.empty));
      expect(await attribute(form.email, 'aria-invalid')).toBe('true');

      await form.email.fill('not-an-address');
      await form.submit.click();
      await shows(form.section.text(copy.signup.errors.malformed(copy.signup.exampleEmail)));

      const address = newAddress(engine);
      await form.email.fill(address);
      await form.submit.click();
      await shows(visitor.role('status').text(copy.signup.notices.successBody));
      await shows(visitor.role('status').text(address));

      await visitor.role('status').role('button', copy.signup.changeAddress).click();
      await expect.poll(async () => (await form.email.inspect()).value).toBe(address);
      await form.submit.click();
      await shows(visitor.role('status').text(copy.signup.notices.duplicateBody));

      await visitor.open(await linkInMailTo(outbox, address, CONFIRM_PATH));
      await shows(visitor.role('heading', copy.meta.confirmTitle, 1));
      await visitor.role('button', confirmCopy.nl.page.button).click();
      await shows(visitor.role('heading', copy.meta.confirmResultTitles['confirm-confirmed']));

      await visitor.open(await linkInMailTo(outbox, address, LEAVE_PATH));
      await shows(visitor.role('heading', copy.meta.leaveTitle, 1));
      await visitor.role('button', leaveCopy.nl.page.button).click();
      await shows(visitor.role('heading', copy.meta.leaveResultTitles['leave-done']));
    },
  },
  {
    // A graphic's 3:1 (WCAG 1.4.11). WebKit does not tell an image the page's colour scheme.
    name: 'in the dark theme, the logo’s name stands out from the header and the footer',
    dark: true,
    async walk(visitor) {
      await visitor.open('/');
      expect((await visitor.page()).dark).toBe(true);
      for (const landmark of ['banner', 'contentinfo']) {
        const name = visitor.role(landmark).role('img', BRAND_NAME);
        await expect.poll(() => name.inkContrast(), { message: `${name}` }).toBeGreaterThanOrEqual(3);
      }
    },
  },
  {
    // The way back is a plain link to #signup: the jump without a script, as the hero's link makes it.
    name: 'the form joins on a result page; a refused address leads back to the form, in view',
    javaScript: false,
    async walk(visitor, { engine }) {
      const copy = messages.nl;
      const form = signupForm(visitor, copy);
      await visitor.open('/');
      await form.email.fill(newAddress(engine));
      await form.submit.click();
      await expect.poll(() => visitor.location()).toBe(WAITLIST_RESULT_PATH.joined.nl);
      await shows(visitor.role('heading', copy.meta.waitlistResultTitles['waitlist-joined'], 1));

      await visitor.open('/');
      // The browser's own check lets `ann@example` through; the page's rule asks for a dot after the @.
      await form.email.fill('ann@example');
      await form.submit.click();
      await expect.poll(() => visitor.location()).toBe(WAITLIST_RESULT_PATH['invalid-email'].nl);
      await shows(visitor.text(copy.signup.errors.malformed(copy.signup.exampleEmail)));

      await visitor.role('link', resultCopy.nl.backToForm).click();
      await expect.poll(() => visitor.location()).toBe('/#signup');
      await expectSignupLanded(visitor, copy);
    },
  },
];

// Light with the script, then dark, then without: each engine starts a browser for each of the three.
for (const engine of [firefox(), webkit()])
  describe(engine.name, () => {
    afterAll(() => engine.close());
    for (const { name, javaScript = true, dark = false, walk } of JOURNEYS)
      test(`${javaScript ? 'with' : 'without'} the page’s script: ${name}`, () =>
        visit(engine, inject('siteUrl'), { javaScript, dark }, (visitor) =>
          walk(visitor, { engine: engine.name, outbox: inject('outbox') }),
        ));
  });
