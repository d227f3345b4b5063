import { isAbsolute, resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Rolldown } from 'vite';
import { pageSiteConfig, readSiteConfig } from '#contract/site-config';

/** Imported by the entry (src/boot.ts) once the prerendered page has painted. */
const APP_MODULE = resolve(import.meta.dirname, 'src/main.tsx');
const appModules = new WeakMap<Rolldown.ChunkingContext, Set<string>>();

/** Everything the app imports statically, also what a lazy chunk shares: one script compresses better than four. */
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
  // Not the bundler's own helpers: the entry shares them, and would then import the app at once.
  return modules.has(moduleId) && isAbsolute(moduleId) ? 'main' : null;
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  // The site's facts go into the bundle as values: the page carries neither their reading nor zod.
  define: { __SITE_CONFIG__: JSON.stringify(pageSiteConfig(readSiteConfig(process.env))) },
  // `@/…` is src/, as tsconfig.json's paths say.
  resolve: { alias: [{ find: /^@\//, replacement: `${resolve(import.meta.dirname, 'src')}/` }] },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // Which chunks the app loads at start, for the bundle budgets (bench/bundle.ts).
    manifest: true,
    // The entry starts the app only after the first paint, and the app is one chunk.
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
