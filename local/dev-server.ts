/**
 * `npm run dev`: the page (frontend/vite.config.ts) on Vite's dev server with hot reload, and next to it the
 * same waitlist API as `npm start` (vite-waitlist-api.ts). The page's config knows nothing of the runner:
 * the runner adds its API here.
 */
import { resolve } from 'node:path';
import { createServer } from 'vite';
import { localWaitlistApi } from './vite-waitlist-api';

const server = await createServer({
  configFile: resolve(import.meta.dirname, '../frontend/vite.config.ts'),
  configLoader: 'runner',
  plugins: [localWaitlistApi()],
  server: { port: Number(process.env.PORT ?? 5173) },
});
await server.listen();
server.printUrls();
server.bindCLIShortcuts({ print: true });
