// The engines e2e's Chromium does not cover, behind the primitives a journey needs, each tab phone-sized in a
// profile of its own: Firefox ESR over WebDriver BiDi (puppeteer-core); WebKitGTK through WebKitWebDriver
// (webdriverio), which has no headless mode, in an Xvfb display of its own, driving webkit-window.py.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import puppeteer, { type Browser } from 'puppeteer-core';
import { Key, remote } from 'webdriverio';

const VIEWPORT = { width: 390, height: 844 } as const;

/** `initScript` runs in every page before its own scripts. */
type TabOptions = { javaScript: boolean; dark: boolean; initScript: string };

export interface Tab {
  goto(url: string): Promise<void>;
  /** A JavaScript expression's JSON value in the page (a promise awaited). */
  evaluate<T>(expression: string): Promise<T>;
  /** A pointer's click at a point of the viewport, in CSS pixels. */
  click(x: number, y: number): Promise<void>;
  /** Key by key, into whatever has the focus. */
  type(text: string): Promise<void>;
  pressEscape(): Promise<void>;
  /** The viewport as drawn, a PNG in base64. */
  screenshot(): Promise<string>;
  close(): Promise<void>;
}

export interface Engine {
  name: string;
  newTab(options: TabOptions): Promise<Tab>;
  close(): Promise<void>;
}

/** Firefox over BiDi can set neither scripts nor the colour scheme per tab: a browser for each setting. */
export function firefox(): Engine {
  const browsers = new Map<string, Promise<Browser>>();
  return {
    name: 'firefox',
    async newTab({ javaScript, dark, initScript }) {
      const key = `${javaScript} ${dark}`;
      const launched =
        browsers.get(key) ??
        puppeteer.launch({
          browser: 'firefox',
          executablePath: '/usr/bin/firefox-esr',
          headless: true,
          extraPrefsFirefox: {
            // Scrollbars over the page, as on a phone: else the page is 12 px narrower.
            'ui.useOverlayScrollbars': 1,
            'javascript.enabled': javaScript,
            'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
          },
        });
      browsers.set(key, launched);
      const context = await (await launched).createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(VIEWPORT);
      await page.evaluateOnNewDocument(initScript);
      return {
        goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
        // Without scripts, Firefox vetoes evaluations in a document a form post is leaving, and now and then
        // once the new page is shown: tried again for 2 s, then the address shown is loaded once more.
        async evaluate<T>(expression: string) {
          for (let attempt = 0; attempt < 20; attempt++) {
            try {
              return (await page.evaluate(expression)) as T;
            } catch (error) {
              if (!String(error).includes('NS_ERROR_XPC_SECURITY_MANAGER_VETO')) throw error;
              await delay(100);
            }
          }
          await page.goto(page.url(), { waitUntil: 'load' });
          return (await page.evaluate(expression)) as T;
        },
        click: (x, y) => page.mouse.click(x, y),
        type: (text) => page.keyboard.type(text),
        pressEscape: () => page.keyboard.press('Escape'),
        screenshot: () => page.screenshot({ encoding: 'base64' }),
        close: () => context.close(),
      };
    },
    async close() {
      await Promise.all([...browsers.values()].map(async (browser) => (await browser).close()));
    },
  };
}

function startXvfb(): Promise<{ xvfb: ChildProcess; display: string }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((ready, fail) => {
    xvfb.once('exit', (code) => fail(new Error(`Xvfb stopped (${code})`)));
    xvfb.stdout?.once('data', (data) => ready({ xvfb, display: `:${String(data).trim()}` }));
  });
}

async function startDriver(display: string): Promise<{ driver: ChildProcess; port: number }> {
  const port = await new Promise<number>((found) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => found(port));
    });
  });
  const driver = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  const ready = () =>
    fetch(`http://127.0.0.1:${port}/status`).then(
      ({ ok }) => ok,
      () => false,
    );
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await delay(50))
    if (await ready()) return { driver, port };
  driver.kill();
  throw new Error('WebKitWebDriver did not start');
}

// WebKitWebDriver runs one session at a time: one per setting of scripts and colour scheme, its browser's first
// window unused; each tab a window of its own, a profile of its own.
export function webkit(): Engine {
  let folder = '';
  let started: Promise<{ xvfb: ChildProcess; driver: ChildProcess; port: number }> | undefined;
  let session: { key: string; browser: WebdriverIO.Browser; home: string } | undefined;
  const sessionFor = async ({ javaScript, dark, initScript }: TabOptions) => {
    const key = `${javaScript} ${dark}`;
    if (session?.key === key) return session;
    await session?.browser.deleteSession().catch(() => {});
    started ??= startXvfb().then(async ({ xvfb, display }) => ({ xvfb, ...(await startDriver(display)) }));
    const { port } = await started;
    folder ||= mkdtempSync(join(tmpdir(), 'mandje-webkit-'));
    writeFileSync(join(folder, 'init.js'), initScript);
    const browser = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'error',
      capabilities: {
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': {
          binary: join(import.meta.dirname, 'webkit-window.py'),
          args: [
            '--automation',
            `--data-folder=${folder}`,
            `--size=${VIEWPORT.width}x${VIEWPORT.height}`,
            `--init-script=${join(folder, 'init.js')}`,
            ...(javaScript ? [] : ['--no-javascript']),
            ...(dark ? ['--dark'] : []),
          ],
        },
      } as WebdriverIO.Capabilities,
    });
    session = { key, browser, home: await browser.getWindowHandle() };
    return session;
  };
  return {
    name: 'webkit',
    async newTab(options) {
      const { browser, home } = await sessionFor(options);
      const { handle } = await browser.createWindow('window');
      await browser.switchToWindow(handle);
      // Each key down and up in turn: webdriverio's `keys` presses them all at once, dropping a repeated one.
      const keys = (names: string[]) => {
        const action = browser.action('key');
        for (const name of names) action.down(name).up(name);
        return action.perform();
      };
      return {
        goto: (url) => browser.url(url).then(() => {}),
        // Never an object with an `error` key: webdriverio reads that as the driver's error.
        evaluate: <T>(expression: string) => browser.execute(`return ${expression}`) as Promise<T>,
        click: (x, y) =>
          browser
            .action('pointer', { parameters: { pointerType: 'mouse' } })
            .move({ x, y, origin: 'viewport' })
            .down()
            .up()
            .perform(),
        type: (text) => keys([...text]),
        pressEscape: () => keys([Key.Escape]),
        screenshot: () => browser.takeScreenshot(),
        close: async () => {
          await browser.closeWindow();
          await browser.switchToWindow(home);
        },
      };
    },
    async close() {
      await session?.browser.deleteSession().catch(() => {});
      const { xvfb, driver } = (await started) ?? {};
      driver?.kill();
      xvfb?.kill();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}
