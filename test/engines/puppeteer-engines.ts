/**
 * Chromium (over the DevTools protocol) and Firefox ESR (over WebDriver BiDi, no geckodriver) through
 * puppeteer-core, both Debian's builds: puppeteer-core never downloads a browser.
 */
import { setTimeout as delay } from 'node:timers/promises';
import puppeteer, { type Browser, type LaunchOptions, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../frontend/scripts/chromium';
import { type Engine, type EngineTab, type TabOptions, VIEWPORT } from './engine';

/** How long a vetoed evaluation is tried again before the page is loaded once more: 2 s. */
const VETO_RETRIES = 20;
const VETO_RETRY_MS = 100;

function tabOf(page: Page, close: () => Promise<void>): EngineTab {
  return {
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'load' });
    },
    evaluate: async <T>(expression: string) => {
      // Firefox over BiDi, with scripts off, vetoes evaluations in a document a form post is leaving, and
      // now and then keeps doing so once the new page is shown. Tried again for a while; if the veto
      // stays, the address shown is loaded once more for a live document (a wrong address stays wrong).
      const vetoed = (error: unknown) =>
        String((error as Error).message).includes('NS_ERROR_XPC_SECURITY_MANAGER_VETO');
      for (let attempt = 0; ; attempt++) {
        try {
          return (await page.evaluate(expression)) as T;
        } catch (error) {
          if (!vetoed(error)) throw error;
          if (attempt === VETO_RETRIES) break;
          await delay(VETO_RETRY_MS);
        }
      }
      await page.goto(page.url(), { waitUntil: 'load' });
      return (await page.evaluate(expression)) as T;
    },
    click: (x, y) => page.mouse.click(x, y),
    type: (text) => page.keyboard.type(text),
    press: (key) => page.keyboard.press(key),
    screenshot: () => page.screenshot(),
    close,
  };
}

/**
 * An engine whose browser is launched once for each set of launch options `launchOptions` gives for a tab:
 * Firefox over BiDi can neither switch scripts off nor set the colour scheme for one tab, so it gives its
 * preferences for them; Chromium sets both per tab over the DevTools protocol (`perTab`).
 */
function puppeteerEngine(
  name: string,
  launchOptions: (tab: Omit<TabOptions, 'initScript'>) => LaunchOptions,
  perTab: boolean,
): Engine {
  const browsers = new Map<string, Promise<Browser>>();
  const browserFor = (tab: Omit<TabOptions, 'initScript'>) => {
    const options = launchOptions(tab);
    const key = JSON.stringify(options);
    let browser = browsers.get(key);
    if (!browser) {
      browser = puppeteer.launch(options);
      browsers.set(key, browser);
    }
    return browser;
  };
  return {
    name,
    async newTab({ javaScript, initScript, colorScheme }: TabOptions) {
      // A browser context of its own: no storage, cookies or cache from another tab.
      const context = await (await browserFor({ javaScript, colorScheme })).createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(VIEWPORT);
      if (perTab) {
        await page.setJavaScriptEnabled(javaScript);
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: colorScheme }]);
      }
      await page.evaluateOnNewDocument(initScript);
      return tabOf(page, () => context.close());
    },
    async close() {
      const launched = [...browsers.values()];
      browsers.clear();
      await Promise.all(launched.map(async (browser) => (await browser).close()));
    },
  };
}

export const chromium = (): Engine =>
  puppeteerEngine(
    'chromium',
    () => ({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS }),
    true,
  );

export const firefox = (): Engine =>
  puppeteerEngine(
    'firefox',
    ({ javaScript, colorScheme }) => ({
      browser: 'firefox',
      executablePath: '/usr/bin/firefox-esr',
      headless: true,
      extraPrefsFirefox: {
        // Scrollbars over the page, as on a phone and in the other two engines: else the page is 12 px narrower.
        'ui.useOverlayScrollbars': 1,
        'javascript.enabled': javaScript,
        // What pages are told the visitor prefers: 0 dark, 1 light.
        'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
      },
    }),
    false,
  );
