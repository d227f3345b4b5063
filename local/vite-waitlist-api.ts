import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { dataDirFromEnvironment, IN_MEMORY } from './data-dir';

/**
 * `npm run dev`: the same waitlist API as `npm start` (real handlers, dynalite in DATA_DIR, confirmation
 * mails in its outbox with their links printed), served by Vite's dev server next to the hot-reloading
 * page. The confirmation page a link opens is the built one: run `npm run build` once first.
 */
export function localWaitlistApi(): Plugin {
  return {
    name: 'mandje-local-waitlist-api',
    apply: 'serve',
    async configureServer(server) {
      // Loaded here, not at the top: `vite build` reads this config too and needs none of the AWS SDK.
      const { startLocalWaitlistApi } = await import('./local-waitlist-api');
      const dataDir = dataDirFromEnvironment();
      const api = await startLocalWaitlistApi(
        { dataDir },
        {
          confirmPagesDir: resolve(import.meta.dirname, '../dist/.mandje'),
          siteUrl: () => server.resolvedUrls?.local[0] ?? `http://localhost:${server.config.server.port}/`,
          outboxDir:
            dataDir === IN_MEMORY ? mkdtempSync(join(tmpdir(), 'mandje-outbox-')) : join(dataDir, 'outbox'),
        },
      );
      server.httpServer?.once('close', () => void api.close());
      server.middlewares.use((request, response, next) => {
        if (request.url?.startsWith('/api/')) api.serve(request, response).catch(next);
        else next();
      });
    },
  };
}
