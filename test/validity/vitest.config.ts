import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Checks the built dist/ (npm run build first) and the mails with the W3C Nu checker, one Java run for all.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/validity/**/*.test.ts'],
    hookTimeout: 120_000,
  },
});
