/** `npm run dev`: the page on Vite's dev server, with the same waitlist API as `npm start` next to it. */
import { resolve } from 'node:path';
import { createServer } from 'vite';
import { dataDirFromEnvironment } from './data-dir';
import { startLocalWaitlistApi } from './runner';

const server = await createServer({
  configFile: resolve(import.meta.dirname, '../frontend/vite.config.ts'),
  configLoader: 'runner',
  plugins: [
    {
      name: 'mandje-local-waitlist-api',
      apply: 'serve',
      async configureServer(server) {
        const api = await startLocalWaitlistApi({
          dataDir: dataDirFromEnvironment(),
          // The confirmation page a link opens is the built one: run `npm run build` once first.
          confirmPagesDir: resolve(import.meta.dirname, '../dist/.mandje'),
          siteUrl: `http://localhost:${server.config.server.port}/`,
        });
        server.httpServer?.once('close', () => void api.close());
        server.middlewares.use((request, response, next) => {
          if (request.url?.startsWith('/api/')) api.serve(request, response).catch(next);
          else next();
        });
      },
    },
  ],
  server: { port: Number(process.env.PORT ?? 5173) },
});
await server.listen();
server.printUrls();
server.bindCLIShortcuts({ print: true });
