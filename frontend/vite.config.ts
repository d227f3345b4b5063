import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localWaitlistApi } from '../local/vite-waitlist-api';

// The page lives in frontend/; `npm run build` (frontend/build.ts) drives this config for the browser
// bundle and for the prerender, and `npm run dev` serves it with hot reload and the local waitlist API.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), localWaitlistApi()],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: { port: Number(process.env.PORT ?? 5173) },
});
