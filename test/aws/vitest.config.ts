import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// The production path (npm run test:aws): the synthesized stack's bundles against protocol emulators, on
// the Lambda's Node (test/lambda-node.mjs starts it). One stack per file, files in turn.
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    environment: 'node',
    include: ['test/aws/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
