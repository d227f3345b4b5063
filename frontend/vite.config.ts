import { isAbsolute, resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Rolldown } from 'vite';
import { pageSiteConfig, readSiteConfig } from '#contract/site-config';

/** The app, which the page's entry (src/boot.ts) imports once the prerendered page has painted. */
const APP_MODULE = resolve(import.meta.dirname, 'src/main.tsx');
const appModules = new WeakMap<Rolldown.ChunkingContext, Set<string>>();

/**
 * Everything the app (src/main.tsx) imports statically belongs in its chunk, also what a lazily loaded
 * chunk shares with it: every visit downloads the app anyway, and one script compresses better than four.
 */
function appChunk(moduleId: string, context: Rolldown.ChunkingContext): string | null {
  let modules = appModules.get(context);
  if (!modules) {
    modules = new Set();
    const pending = [APP_MODULE];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      const info = context.getModuleInfo(id);
      if (!info || modules.has(id)) continue;
      modules.add(id);
      pending.push(...info.importedIds);
    }
    appModules.set(context, modules);
  }
  // Only the page's files and packages: the bundler's own helpers are shared with the entry, and in the
  // app's chunk they would make the entry import the app at once.
  return modules.has(moduleId) && isAbsolute(moduleId) ? 'main' : null;
}

/**
 * The site's facts, read once from the MANDJE_* variables (a wrong one stops the build with its name), go
 * into the bundle as values: the page carries neither the reading nor zod.
 */
const SITE_CONFIG_DEFINE = {
  __SITE_CONFIG__: JSON.stringify(pageSiteConfig(readSiteConfig(process.env))),
};

// The page lives in frontend/; `npm run build` (frontend/build.ts) drives this config for the browser
// bundle and for the prerender, and `npm run dev` (local/dev-server.ts) serves it with hot reload and the
// local waitlist API.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  define: SITE_CONFIG_DEFINE,
  // `@/…` names a place in src/ (tsconfig.json's paths say the same to TypeScript and tsx).
  resolve: { alias: [{ find: /^@\//, replacement: `${resolve(import.meta.dirname, 'src')}/` }] },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks the app loads at start, for the bundle budgets (bench/bundle.ts).
    manifest: true,
    // No modulepreload links or their polyfill: the entry (src/boot.ts) is meant to start the app only after
    // the first paint, and the app is one chunk.
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: appChunk, debugName: 'app', includeDependenciesRecursively: false }],
        },
      },
    },
    target: 'es2022',
  },
});
