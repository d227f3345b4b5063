import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Measures the built dist/ (npm run build first): the bundle needs a second build without React, and
// Lighthouse runs on each page one run after another, so files run in turn.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/budgets/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 10_000,
    hookTimeout: 600_000,
  },
});
