/**
 * `npm start`: the whole product on one machine. Serves the built page from dist/ on PORT (default 3000).
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { createStaticSiteHandler } from './static-site';

const port = Number(process.env.PORT ?? 3000);
const distDir = resolve(import.meta.dirname, '../dist');

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}".`);
  process.exit(1);
}
if (!existsSync(resolve(distDir, 'index.html'))) {
  console.error('dist/ has no built page: run `npm run build` first (`npm start` does both).');
  process.exit(1);
}

const serveSite = createStaticSiteHandler(distDir);
const server = createServer((request, response) => {
  serveSite(request, response).catch(() => {
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('Internal Server Error');
  });
});

server.on('error', (error: NodeJS.ErrnoException) => {
  const reason =
    error.code === 'EADDRINUSE' ? `port ${port} is already in use (set PORT to use another)` : error.message;
  console.error(`Mandje could not start: ${reason}.`);
  process.exit(1);
});

server.listen(port, () => {
  console.log(
    `Mandje is running at http://localhost:${port}/ (English: http://localhost:${port}/en/). Ctrl-C stops it.`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
