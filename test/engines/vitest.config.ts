import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// The journeys in Firefox ESR and WebKitGTK against the runner global-setup.ts starts on dist/ (build first).
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/engines/*.test.ts'],
    globalSetup: ['test/engines/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 5_000, interval: 50 } },
  },
});
