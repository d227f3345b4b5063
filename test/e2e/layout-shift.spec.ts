import type { Page } from '@playwright/test';
import { demoParts, expect, LOCALE_CASES, openPage, test } from './support';

interface LayoutShiftRecord {
  total: number;
  /** What moved, for the failure message. */
  moved: string[];
}

/**
 * Adds up layout shifts from the start of the page, as Cumulative Layout Shift counts them: every
 * `layout-shift` entry except those right after the visitor's own input (a tap, a key).
 */
function recordLayoutShifts() {
  const record: LayoutShiftRecord = { total: 0, moved: [] };
  (window as unknown as { __layoutShift: LayoutShiftRecord }).__layoutShift = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      record.total += entry.value;
      for (const { node, previousRect, currentRect } of entry.sources) {
        const where = (rect: DOMRectReadOnly) => `${rect.x},${rect.y} ${rect.width}×${rect.height}`;
        const what = node instanceof Element ? node.outerHTML.slice(0, 120) : String(node?.nodeName);
        record.moved.push(
          `${what} from ${where(previousRect)} to ${where(currentRect)} at ${Math.round(entry.startTime)} ms, scrollY ${window.scrollY}`,
        );
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Scrolls to the bottom a screen at a time, letting each screen paint, then back to the top. */
async function scrollThrough(page: Page): Promise<void> {
  const steps = await page.evaluate(() =>
    Math.ceil(document.documentElement.scrollHeight / window.innerHeight),
  );
  for (let step = 1; step <= steps; step += 1) {
    await page.evaluate(
      (screen) => window.scrollTo({ top: screen * window.innerHeight, behavior: 'instant' }),
      step,
    );
    await nextFrames(page);
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await nextFrames(page);
}

// A browser that asks for English: at / the offer of the English page appears as the page hydrates.
test.use({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });

for (const { locale, path, copy } of LOCALE_CASES) {
  test(`${path} (${locale}) does not shift its layout while loading, hydrating and being scrolled at 390 px`, async ({
    page,
  }) => {
    await page.addInitScript(recordLayoutShifts);
    await openPage(page, path);
    await page.waitForLoadState('networkidle');
    await scrollThrough(page);

    // The demo's dialogs and the plus menu load their code when a pointer comes near; that must not move
    // anything either.
    const { section, panel } = demoParts(page, copy);
    await panel.scrollIntoViewIfNeeded();
    await Promise.all([page.waitForResponse(/\/demo-dialogs-[\w-]+\.js$/), panel.hover()]);
    await Promise.all([
      page.waitForResponse(/\/plus-menu-entries-[\w-]+\.js$/),
      section.getByRole('button', { name: copy.demo.plusMenu.toggle }).hover(),
    ]);
    await nextFrames(page);

    const { total, moved } = await page.evaluate(
      () => (window as unknown as { __layoutShift: LayoutShiftRecord }).__layoutShift,
    );
    expect(moved, 'elements that moved').toEqual([]);
    expect(total).toBe(0);
  });
}
