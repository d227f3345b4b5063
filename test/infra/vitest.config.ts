import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Each file synthesizes once; a synthesis, cdk-nag's checks included, may take several seconds.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/infra/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
