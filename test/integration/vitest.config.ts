import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Real handler, real AWS SDK, real HTTP, dynalite as the store: one runner per test file, files in turn.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/integration/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
