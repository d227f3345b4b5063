import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../frontend/scripts/chromium';

// Against the production build, served by `npm start` with production's headers; Chromium is Debian's.
const repoRoot = resolve(import.meta.dirname, '../..');
// A fresh data folder for every run; the workers, loading this file too, inherit it and find the outbox.
process.env.MANDJE_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'mandje-e2e-'));
const dataDir = process.env.MANDJE_E2E_DATA_DIR;
// Another port for a second run beside this one: MANDJE_E2E_PORT=4392.
const PORT = Number(process.env.MANDJE_E2E_PORT ?? 4391);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: import.meta.dirname,
  outputDir: resolve(repoRoot, 'test-results/e2e-artifacts'),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The machines have two cores; the server and the build share them.
  workers: 2,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: ['--headless', ...CHROMIUM_FLAGS],
        },
      },
    },
  ],
  webServer: {
    command: 'npm start',
    cwd: repoRoot,
    // Every test signs up from 127.0.0.1: the per-client limit is tested by its own runner.
    env: { PORT: String(PORT), DATA_DIR: dataDir, SIGNUP_RATE_LIMIT: '0' },
    url: `${baseURL}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
