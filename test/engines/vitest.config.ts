import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The page's journeys (journeys.ts) in Chromium, Firefox ESR and WebKitGTK, all three from Debian, against
 * the product as `npm start` runs it (global-setup.ts). One engine at a time: the machines have two cores.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/engines/*.test.ts'],
    globalSetup: ['test/engines/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 5_000, interval: 50 } },
  },
});
