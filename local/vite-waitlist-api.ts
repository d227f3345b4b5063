import type { Plugin } from 'vite';
import { dataDirFromEnvironment } from './data-dir';

/**
 * `npm run dev`: the same waitlist API as `npm start` (real handler, dynalite in DATA_DIR), served by
 * Vite's dev server next to the hot-reloading page.
 */
export function localWaitlistApi(): Plugin {
  return {
    name: 'mandje-local-waitlist-api',
    apply: 'serve',
    async configureServer(server) {
      // Loaded here, not at the top: `vite build` reads this config too and needs none of the AWS SDK.
      const { startLocalWaitlistApi } = await import('./local-waitlist-api');
      const api = await startLocalWaitlistApi({ dataDir: dataDirFromEnvironment() });
      server.httpServer?.once('close', () => void api.close());
      server.middlewares.use((request, response, next) => {
        if (request.url?.startsWith('/api/')) api.serve(request, response).catch(next);
        else next();
      });
    },
  };
}
