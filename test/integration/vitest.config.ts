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
    // Tests sign up many times from 127.0.0.1; the ones about the per-client limit set it themselves.
    env: { SIGNUP_RATE_LIMIT: '0' },
  },
});
