import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Synthesis bundles the Lambda with esbuild: each file synthesizes once, and may take a few seconds.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/infra/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
