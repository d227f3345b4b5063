import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { IN_MEMORY } from './local-dynamodb';
import { startLocalWaitlistApi } from './local-waitlist-api';

/**
 * `npm run dev`: the same waitlist API as `npm start` (real handler, dynalite in DATA_DIR), served by
 * Vite's dev server next to the hot-reloading page.
 */
export function localWaitlistApi(): Plugin {
  return {
    name: 'mandje-local-waitlist-api',
    apply: 'serve',
    async configureServer(server) {
      const dataDir =
        process.env.DATA_DIR === IN_MEMORY ? IN_MEMORY : resolve(process.env.DATA_DIR ?? '.data');
      const api = await startLocalWaitlistApi(dataDir);
      server.httpServer?.once('close', () => void api.close());
      server.middlewares.use((request, response, next) => {
        if (request.url?.startsWith('/api/')) api.serve(request, response).catch(next);
        else next();
      });
    },
  };
}
