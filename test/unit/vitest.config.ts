import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { DEFAULT_SITE_CONFIG, pageSiteConfig } from '#contract/site-config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  plugins: [react()],
  // `@/…` is frontend/src, as in frontend/vite.config.ts.
  resolve: {
    alias: [{ find: /^@\//, replacement: `${resolve(import.meta.dirname, '../../frontend/src')}/` }],
  },
  // The page's site facts, as vite.config.ts puts them in the bundle: here the defaults.
  define: { __SITE_CONFIG__: JSON.stringify(pageSiteConfig(DEFAULT_SITE_CONFIG)) },
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
        // What the page, the functions and the runner share: plain modules, no DOM.
        test: { name: 'contract', environment: 'node', include: ['test/unit/contract/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'functions', environment: 'node', include: ['test/unit/functions/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'local, operator and bench',
          environment: 'node',
          include: [
            'test/unit/local/**/*.test.ts',
            'test/unit/operator/**/*.test.ts',
            'test/unit/bench/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
