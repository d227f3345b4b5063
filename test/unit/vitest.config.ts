import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  plugins: [react()],
  test: {
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'page',
          environment: 'jsdom',
          include: ['test/unit/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'functions', environment: 'node', include: ['test/unit/functions/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'local and operator',
          environment: 'node',
          include: ['test/unit/local/**/*.test.ts', 'test/unit/operator/**/*.test.ts'],
        },
      },
    ],
  },
});
