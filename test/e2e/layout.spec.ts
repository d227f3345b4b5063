import type { Page } from '@playwright/test';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import { demoParts, expect, LOCALE_CASES, openPage, test } from './support';

/**
 * What a visitor on a narrow phone, or one reading at 200% zoom, must never meet: a page that scrolls
 * sideways, or text cut off by its box.
 *
 * 200% zoom is emulated as the browser produces it: zooming a 1280 × 800 window to 200% gives the page a
 * viewport of 640 × 400 CSS pixels with two device pixels to each, so media queries, `vw` units and line
 * lengths all see 640 px. A 640 px viewport with a device scale factor of 2 is exactly that. (CSS `zoom`
 * on the page would not be: its media queries would still see 1280 px.)
 */
const SIZES = [
  { name: '360 px', viewport: { width: 360, height: 800 }, deviceScaleFactor: 1 },
  { name: '1280 px at 200% zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
] as const;

const SCHEMES = ['light', 'dark'] as const;

interface LayoutProblems {
  scrollWidth: number;
  innerWidth: number;
  /** Visible elements that reach past either edge of the viewport, with nothing clipping them. */
  tooWide: string[];
  /** Elements with text in them whose overflow is hidden and whose content is wider than their box. */
  clipped: string[];
}

/** Runs in the page: lays out every section (as a jump to the form would), then measures. */
function findLayoutProblems(): LayoutProblems {
  document.documentElement.dataset.render = 'all';
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 60)}"`;
  /** A box that keeps its content in: it clips it or scrolls it, so the content cannot widen the page. */
  const keepsContentIn = (style: CSSStyleDeclaration) => style.overflowX !== 'visible';
  /** Visually hidden text (Tailwind's sr-only): clipped to nothing on purpose. */
  const visuallyHidden = (element: Element, style: CSSStyleDeclaration) => {
    const rect = element.getBoundingClientRect();
    return rect.width <= 1 || rect.height <= 1 || style.clipPath === 'inset(50%)';
  };
  const insideClippingBox = (element: Element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (parent === document.body) return false;
      if (keepsContentIn(getComputedStyle(parent))) return true;
    }
    return false;
  };

  const tooWide: string[] = [];
  const clipped: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden' || visuallyHidden(element, style)) continue;
    const rect = element.getBoundingClientRect();
    if ((rect.right > window.innerWidth + 0.5 || rect.left < -0.5) && !insideClippingBox(element))
      tooWide.push(`${describe(element)} spans ${Math.round(rect.left)} to ${Math.round(rect.right)} px`);
    // A box that hides what does not fit (no scrollbar to reach it), around text that does not fit.
    if (
      ['hidden', 'clip'].includes(style.overflowX) &&
      element.textContent?.trim() &&
      element.scrollWidth > element.clientWidth + 1
    )
      clipped.push(`${describe(element)}: ${element.scrollWidth} px of text in ${element.clientWidth} px`);
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    tooWide,
    clipped,
  };
}

async function expectNothingTooWideOrClipped(page: Page): Promise<void> {
  // Text in the web font, as it is once the font has come (it may come after the first paint).
  await page.evaluate(() => document.fonts.ready);
  const problems = await page.evaluate(findLayoutProblems);
  expect(problems.tooWide, 'elements wider than the viewport').toEqual([]);
  expect(problems.clipped, 'text cut off by its box').toEqual([]);
  expect(problems.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(problems.innerWidth);
}

for (const { name, viewport, deviceScaleFactor } of SIZES)
  for (const colorScheme of SCHEMES)
    test.describe(`layout at ${name}, ${colorScheme}`, () => {
      test.use({ viewport, deviceScaleFactor, colorScheme });

      for (const { locale, path, copy } of LOCALE_CASES) {
        test(`${path} fits the width and cuts off no text, in either demo view`, async ({ page }) => {
          await openPage(page, path);
          await expectNothingTooWideOrClipped(page);

          const { basketTab, panel } = demoParts(page, copy);
          await basketTab.click();
          await expect(
            panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true }),
          ).toBeVisible();
          await expectNothingTooWideOrClipped(page);
        });

        test(`the ${locale} privacy notice and a result page fit the width and cut off no text`, async ({
          page,
        }) => {
          for (const address of [PAGE_PATH.privacy[locale], PAGE_PATH['waitlist-joined'][locale]]) {
            await openPage(page, address);
            await expectNothingTooWideOrClipped(page);
          }
        });
      }
    });
