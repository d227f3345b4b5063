/**
 * WebKitGTK, Safari's engine, from Debian: webdriverio (classic WebDriver) against WebKitWebDriver, which
 * has no headless mode, so it runs in an Xvfb display of its own, driving a small browser of our own
 * (webkit-window.py) started with the page's scripts on or off and the init script in it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Key, remote } from 'webdriverio';
import { type Engine, type EngineTab, type TabOptions, VIEWPORT } from './engine';

const WINDOW = join(import.meta.dirname, 'webkit-window.py');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** An X display of its own; resolves with its number once the server is ready. */
function startXvfb(): Promise<{ process: ChildProcess; display: string }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb stopped (${code})`)));
    xvfb.stdout?.once('data', (data) => resolve({ process: xvfb, display: `:${String(data).trim()}` }));
  });
}

async function startDriver(display: string): Promise<{ process: ChildProcess; port: number }> {
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { process: driver, port };
    await delay(50);
  }
  driver.kill();
  throw new Error('WebKitWebDriver did not start');
}

export function webkit(): Engine {
  let started: Promise<{ xvfb: ChildProcess; driver: ChildProcess; port: number }> | undefined;
  /** The init scripts' files, and the browser's own (unused) data folders. */
  let folder: string | undefined;
  const initScripts = new Map<string, string>();
  const start = () => {
    started ??= startXvfb().then(async ({ process: xvfb, display }) => {
      const { process: driver, port } = await startDriver(display);
      return { xvfb, driver, port };
    });
    return started;
  };
  const ownFolder = () => {
    folder ??= mkdtempSync(join(tmpdir(), 'mandje-webkit-'));
    return folder;
  };
  const fileFor = (initScript: string) => {
    let file = initScripts.get(initScript);
    if (!file) {
      file = join(ownFolder(), `init-${initScripts.size}.js`);
      writeFileSync(file, initScript);
      initScripts.set(initScript, file);
    }
    return file;
  };

  /**
   * The driver's one session (WebKitWebDriver runs one at a time), for one setting of the page's scripts:
   * a browser started for it, whose first window stays open and unused; each tab is a window of its own.
   */
  let session: (TabOptions & { browser: WebdriverIO.Browser; home: string }) | undefined;
  const endSession = async () => {
    const ending = session;
    session = undefined;
    await ending?.browser.deleteSession().catch(() => {});
  };
  const sessionFor = async ({ javaScript, initScript, colorScheme }: TabOptions) => {
    if (
      session?.javaScript === javaScript &&
      session.initScript === initScript &&
      session.colorScheme === colorScheme
    )
      return session;
    await endSession();
    const { port } = await start();
    const browser = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'error',
      // WebKitWebDriver's own capability, which webdriverio's types do not list.
      capabilities: {
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': {
          binary: WINDOW,
          args: [
            '--automation',
            `--data-folder=${ownFolder()}`,
            `--size=${VIEWPORT.width}x${VIEWPORT.height}`,
            `--init-script=${fileFor(initScript)}`,
            ...(javaScript ? [] : ['--no-javascript']),
            ...(colorScheme === 'dark' ? ['--dark'] : []),
          ],
        },
      } as WebdriverIO.Capabilities,
    });
    session = { browser, javaScript, initScript, colorScheme, home: await browser.getWindowHandle() };
    return session;
  };

  return {
    name: 'webkit',
    async newTab(options: TabOptions): Promise<EngineTab> {
      const { browser, home } = await sessionFor(options);
      // A window of its own is a profile of its own (webkit-window.py).
      const { handle } = await browser.createWindow('window');
      await browser.switchToWindow(handle);
      return {
        goto: async (url) => {
          await browser.url(url);
        },
        // Never an object with an `error` key: webdriverio reads that as the driver's error.
        evaluate: <T>(expression: string) => browser.execute(`return ${expression}`) as Promise<T>,
        click: (x, y) =>
          browser
            .action('pointer', { parameters: { pointerType: 'mouse' } })
            .move({ x, y, origin: 'viewport' })
            .down()
            .up()
            .perform(),
        // Each key down and up in turn: webdriverio's `keys` presses them all at once, as a chord, which
        // drops the second of two equal characters.
        type: (text) => {
          const keys = browser.action('key');
          for (const character of text) keys.down(character).up(character);
          return keys.perform();
        },
        press: (key) => {
          const name = key === 'Enter' ? Key.Enter : Key.Escape;
          return browser.action('key').down(name).up(name).perform();
        },
        screenshot: async () => Buffer.from(await browser.takeScreenshot(), 'base64'),
        close: async () => {
          await browser.switchToWindow(handle);
          await browser.closeWindow();
          await browser.switchToWindow(home);
        },
      };
    },
    async close() {
      await endSession();
      if (started) {
        const { xvfb, driver } = await started;
        started = undefined;
        driver.kill();
        xvfb.kill();
      }
      if (folder) rmSync(folder, { recursive: true, force: true });
      folder = undefined;
      initScripts.clear();
    },
  };
}
